@testable import FamilyService
import KindredAuth
import FoundationEssentials
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `GetApprovalRequest` and `ListApprovalRequests`: who sees which requests, in which order, a page at a time.
@Suite struct ApprovalReadTests {
    @Test func aRequestIsShownToItsMinorTheirGuardiansAndServices() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let approval = try await test.ask(minor)
            for viewer in [minor, guardian, FamilyCallers.service] {
                #expect(
                    try await test.approvals.approval(approval.id, as: viewer)
                        == approval)
            }
        }
    }

    @Test func anyoneElseIsToldThereIsNoSuchRequest() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            let (otherMinor, otherGuardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            try await test.link(otherGuardian, to: otherMinor)
            let approval = try await test.ask(minor)
            let strangers = [
                otherMinor, otherGuardian, FamilyCallers.adult(), FamilyCallers.caller(role: .admin),
            ]
            for stranger in strangers {
                let refusal = await rpcError {
                    try await test.approvals.approval(approval.id, as: stranger)
                }
                #expect(refusal?.code == .notFound && refusal?.reason == "APPROVAL_NOT_FOUND")
            }
            let unknown = await rpcError {
                try await test.approvals.approval(ApprovalID.generate(at: Date()), as: FamilyCallers.service)
            }
            #expect(unknown?.code == .notFound)
        }
    }

    @Test func aGuardianListsTheRequestsOfEveryMinorTheyGuardNewestFirst() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (guardian, anna, ben, stranger) =
                (
                    FamilyCallers.adult(), FamilyCallers.minor(), FamilyCallers.minor(),
                    FamilyCallers.minor()
                )
            try await test.link(guardian, to: anna)
            try await test.link(guardian, to: ben)
            try await test.link(FamilyCallers.adult(), to: stranger)
            let annas = try await test.ask(anna, subject: "a-1")
            _ = try await test.ask(stranger, subject: "s-1")
            let bens = try await test.ask(ben, subject: "b-1")
            let annasSecond = try await test.ask(anna, subject: "a-2")
            #expect(try await Self.list(test, as: guardian).approvals == [annasSecond, bens, annas])
            #expect(try await Self.list(test, as: anna).approvals == [annasSecond, annas])
            #expect(try await Self.list(test, as: FamilyCallers.adult()).approvals.isEmpty)
        }
    }

    @Test func theStateFilterShowsOnlyThatState() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let approved = try await test.approvals.decide(
                try await test.ask(minor, subject: "e-1").id, approve: true, as: guardian)
            let denied = try await test.approvals.decide(
                try await test.ask(minor, subject: "e-2").id, approve: false, as: guardian)
            let pending = try await test.ask(minor, subject: "e-3")
            #expect(try await Self.list(test, as: guardian, state: .pending).approvals == [pending])
            #expect(try await Self.list(test, as: guardian, state: .approved).approvals == [approved])
            #expect(try await Self.list(test, as: minor, state: .denied).approvals == [denied])
            #expect(try await Self.list(test, as: minor).approvals == [pending, denied, approved])
        }
    }

    @Test func pagesFollowOneAnotherUntilTheLast() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            var asked: [ApprovalRecord] = []
            for index in 0..<5 { asked.insert(try await test.ask(minor, subject: "e-\(index)"), at: 0) }
            var seen: [ApprovalRecord] = []
            var token = ""
            var pages = 0
            repeat {
                let page = try await Self.list(test, as: guardian, size: 2, token: token)
                seen += page.approvals
                token = page.nextPageToken
                pages += 1
            } while !token.isEmpty
            #expect(seen == asked)
            #expect(pages == 3)
        }
    }

    // Each minor's requests are read a page at a time and merged: a page must cut across minors by id
    // alone, with the state filter and the cursor applied before each minor's share is cut.
    @Test func aGuardiansPagesInterleaveTheirMinorsAndKeepTheFilter() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (guardian, anna, ben) = (FamilyCallers.adult(), FamilyCallers.minor(), FamilyCallers.minor())
            try await test.link(guardian, to: anna)
            try await test.link(guardian, to: ben)
            var pending: [ApprovalRecord] = []
            for index in 0..<3 {
                pending.insert(try await test.ask(anna, subject: "a-\(index)"), at: 0)
                pending.insert(try await test.ask(ben, subject: "b-\(index)"), at: 0)
            }
            // Ben's newest requests are decided: a page of his cut before the filter would hold none pending.
            for index in 0..<4 {
                _ = try await test.approvals.decide(
                    try await test.ask(ben, subject: "d-\(index)").id, approve: index % 2 == 0, as: guardian)
            }
            pending.insert(try await test.ask(anna, subject: "a-3"), at: 0)
            var seen: [ApprovalRecord] = []
            var token = ""
            repeat {
                let page = try await Self.list(test, as: guardian, state: .pending, size: 3, token: token)
                #expect(page.approvals.count <= 3)
                seen += page.approvals
                token = page.nextPageToken
            } while !token.isEmpty
            #expect(seen == pending)
        }
    }

    @Test func badSizesTokensAndStatesAreNamed() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            for index in 0..<2 { _ = try await test.ask(minor, subject: "e-\(index)") }
            let everything = await rpcError {
                try await Self.list(
                    test, as: guardian, state: .init(rawValue: 7), size: -1, token: "garbage!")
            }
            #expect(everything?.code == .invalidArgument)
            #expect(everything?.badFields == ["state", "page.page_size", "page.page_token"])
            let pendingToken = try await Self.list(test, as: guardian, state: .pending, size: 1).nextPageToken
            #expect(!pendingToken.isEmpty)
            let otherFilter = await rpcError {
                try await Self.list(test, as: guardian, state: .approved, token: pendingToken)
            }
            #expect(otherFilter?.badFields == ["page.page_token"])
        }
    }

    static func list(
        _ test: ApprovalTest, as caller: Caller, state: Kindred_Family_V1_ApprovalState = .unspecified,
        size: Int32 = 0, token: String = ""
    ) async throws -> (approvals: [ApprovalRecord], nextPageToken: String) {
        try await test.approvals.list(
            Kindred_Family_V1_ListApprovalRequestsRequest(
                state: state, page: Kindred_Common_V1_PageRequest(pageSize: size, pageToken: token)),
            as: caller)
    }
}
