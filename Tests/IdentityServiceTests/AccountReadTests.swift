@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("GetMe, GetAccount, GetAgeRange")
struct AccountReadTests {
    @Test func getMeIsTheOwnersWholeAccount() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let account = try await test.register("mia_r")
            #expect(try await test.accounts.me(TestCallers.of(account)) == account)
        }
    }

    @Test func getMeRefusesAServiceAndADeletedAccount() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            #expect(await rpcError { try await test.accounts.me(TestCallers.service) }?.code == .notFound)
            let gone = TestCallers.caller("0192f5e0-7c1a-7b3e-8f00-00000000dead")
            #expect(await rpcError { try await test.accounts.me(gone) }?.reason == "ACCOUNT_NOT_FOUND")
        }
    }

    @Test func theOwnerAdminsAndServicesSeeTheWholeAccountOthersThePublicView() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let mia = try await test.register("mia_r")
            let leo = try await test.register("leo")
            for caller in [TestCallers.of(mia), TestCallers.admin, TestCallers.service] {
                #expect(try await test.accounts.account(mia.id, as: caller) == .ownerView(mia))
            }
            let seen = try await test.accounts.account(mia.id, as: TestCallers.of(leo))
            #expect(seen == .publicView(AccountStore.PublicAccount(id: mia.id, username: "mia_r")))
        }
    }

    @Test func thePublicViewOpensNoDateOfBirth() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let mia = try await test.register("mia_r")
            let leo = try await test.register("leo")
            // A date no key opens: only a read that opens it can fail on it.
            try await pool.query(
                """
                UPDATE identity.accounts SET date_of_birth_sealed = \(Array("not sealed".utf8))::bytea
                WHERE id = \(mia.id)::uuid
                """)
            let seen = try await test.accounts.account(mia.id, as: TestCallers.of(leo))
            #expect(seen == .publicView(AccountStore.PublicAccount(id: mia.id, username: "mia_r")))
            await #expect(throws: (any Error).self) {
                try await test.accounts.account(mia.id, as: TestCallers.of(mia))
            }
        }
    }

    @Test func getAccountNamesAMalformedIDAndAnUnknownOne() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let malformed = await rpcError {
                try await test.accounts.account(try FieldViolations.userID("42"), as: TestCallers.admin)
            }
            #expect(malformed?.badFields == ["user_id"])
            let unknown = await rpcError {
                try await test.accounts.account(
                    UserID("0192F5E0-7C1A-7B3E-8F00-000000000404")!, as: TestCallers.admin)
            }
            #expect(unknown?.code == .notFound)
        }
    }

    @Test func getAgeRangeAnswersOnlyTheBandToTheUserAdminsAndServices() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let teen = try await test.register("teen", born: (2010, 1, 1))
            let other = try await test.register("other")
            let own = try await test.accounts.ageRange(of: nil, as: TestCallers.of(teen))
            #expect(own.band == .sixteenToSeventeen && own.parentalControls)
            for caller in [TestCallers.service, TestCallers.admin, TestCallers.of(teen)] {
                let range = try await test.accounts.ageRange(of: teen.id, as: caller)
                #expect(range.band == .sixteenToSeventeen && range.parentalControls)
            }
            let stranger = await rpcError {
                try await test.accounts.ageRange(of: teen.id, as: TestCallers.of(other))
            }
            #expect(stranger?.code == .permissionDenied)
            #expect(stranger?.reason == "AGE_RANGE_NOT_VISIBLE")
            let unknown = await rpcError {
                try await test.accounts.ageRange(
                    of: UserID("0192f5e0-7c1a-7b3e-8f00-000000000404"), as: TestCallers.service)
            }
            #expect(unknown?.code == .notFound)
        }
    }

    @Test func aServiceMustNameTheUserWhoseAgeRangeItWants() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let error = await rpcError {
                try await TestAccounts(pool).accounts.ageRange(of: nil, as: TestCallers.service)
            }
            #expect(error?.badFields == ["user_id"])
        }
    }

    @Test func theWireAgeRangeCarriesNoDateOfBirth() {
        let fields = Mirror(reflecting: Kindred_Identity_V1_GetAgeRangeResponse()).children.compactMap(
            \.label)
        #expect(fields.sorted() == ["ageBand", "parentalControls"])
    }
}
