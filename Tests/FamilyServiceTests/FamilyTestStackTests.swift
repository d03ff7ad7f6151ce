@testable import FamilyService
import KindredHandlers
import KindredAPI
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The stack every family RPC test stands on: family trusts identity's tokens and reaches identity as a
/// service with its own.
@Suite struct FamilyTestStackTests {
    @Test func familyVerifiesIdentityTokensAndRefusesCallsWithout() async throws {
        try await FamilyTestStack.with { stack in
            let mia = try await stack.register("mia_r", age: 15)
            #expect(!mia.id.isEmpty)
            let profile = try await stack.family.getProfile(.init(), options: mia.bearer).profile
            #expect(profile?.userID == mia.id)
            let anonymous = await rpcError {
                try await stack.family.getProfile(.init(), options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)
        }
    }

    @Test func familyReadsAccountsFromIdentityWithItsOwnServiceToken() async throws {
        try await FamilyTestStack.with { stack in
            let dad = try await stack.register("dad_r", age: 40)
            let account = try await stack.context.identity.account(UserID(dad.id)!)
            #expect(account.email == dad.email && account.emailVerified)
        }
    }
}
