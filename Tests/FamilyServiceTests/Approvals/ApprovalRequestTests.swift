@testable import FamilyService
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `CreateApprovalRequest`: who may ask, what guardians are told, and one pending request per question.
@Suite struct ApprovalRequestTests {
    @Test func theMinorAsksAndEachGuardianIsToldOnce() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, mother, father) = (
                FamilyCallers.minor(), FamilyCallers.adult(), FamilyCallers.adult()
            )
            try await test.link(mother, to: minor)
            try await test.link(father, to: minor)
            let approval = try await test.ask(minor)
            #expect(
                approval.state == .pending && approval.minorID == minor.accountUserID
                    && approval.decidedBy == nil)
            #expect(approval.kind == .joinEvent && approval.subjectID == "event-1")
            for guardian in [mother, father] {
                let inbox = try await test.inbox(guardian)
                #expect(
                    inbox.map(\.kind) == [Int(Kindred_Family_V1_NotificationKind.approvalRequested.rawValue)])
                #expect(inbox.map(\.dedupKey) == ["approval_requested:\(approval.id)"])
            }
            #expect(try await test.inbox(minor).isEmpty)
        }
    }

    @Test func askingAgainWhilePendingReturnsTheSameRequestAndTellsNobodyTwice() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let first = try await test.ask(minor, summary: "Join the beach cleanup")
            let again = try await test.ask(
                minor, summary: "Join the beach cleanup, please", as: FamilyCallers.service)
            #expect(again == first)
            #expect(try await test.inbox(guardian).count == 1)
        }
    }

    @Test func racingAsksMakeOnePendingRequest() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let ids = try await withThrowingTaskGroup(of: ApprovalID.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await test.ask(
                            minor, as: index.isMultiple(of: 2) ? minor : FamilyCallers.service
                        ).id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            let stored = try await pool.query("SELECT count(*) FROM family.approval_requests")[0]
                .decode(Int64.self, column: 0)
            #expect(stored == 1)
            #expect(try await test.inbox(guardian).count == 1)
        }
    }

    @Test func aDecidedQuestionMayBeAskedAgainAndOtherQuestionsAreSeparate() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let denied = try await test.ask(minor)
            _ = try await test.approvals.decide(denied.id, approve: false, as: guardian)
            let askedAgain = try await test.ask(minor)
            let otherSubject = try await test.ask(minor, subject: "event-2")
            let otherKind = try await test.ask(minor, kind: .viewFlaggedMedia)
            #expect(Set([denied.id, askedAgain.id, otherSubject.id, otherKind.id]).count == 4)
            #expect([askedAgain, otherSubject, otherKind].allSatisfy { $0.state == .pending })
            #expect(try await test.inbox(guardian).count == 4)
        }
    }

    @Test func nobodyButTheMinorOrAServiceMayAskInTheMinorsName() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            for other in [guardian, FamilyCallers.minor(), FamilyCallers.caller(role: .admin)] {
                let refusal = await rpcError { try await test.ask(minor, as: other) }
                #expect(refusal?.code == .permissionDenied && refusal?.reason == "APPROVAL_NOT_YOURS")
            }
            #expect(try await test.inbox(guardian).isEmpty)
        }
    }

    @Test func anAdultAskingForThemselvesIsRefused() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (adult, formerGuardian) = (FamilyCallers.adult(), FamilyCallers.adult())
            try await test.link(formerGuardian, to: adult)
            let refusal = await rpcError { try await test.ask(adult) }
            #expect(refusal?.code == .failedPrecondition && refusal?.reason == "NOT_A_MINOR")
        }
    }

    @Test func aMinorWithoutAGuardianIsToldSoAndNothingIsStored() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let minor = FamilyCallers.minor()
            for caller in [minor, FamilyCallers.service] {
                let refusal = await rpcError { try await test.ask(minor, as: caller) }
                #expect(refusal?.code == .failedPrecondition && refusal?.reason == "NO_GUARDIAN")
            }
            let stored = try await pool.query("SELECT 1 FROM family.approval_requests")
            #expect(stored.isEmpty)
        }
    }

    static let malformed: [(Kindred_Family_V1_CreateApprovalRequestRequest, [String])] = [
        (.init(), ["minor_user_id", "kind", "subject_id", "summary"]),
        (.init(minorUserID: "mia", kind: .joinEvent, subjectID: "e", summary: "s"), ["minor_user_id"]),
        (
            .init(
                minorUserID: FamilyCallers.minor().id.description, kind: .init(rawValue: 9), subjectID: "e",
                summary: "s"),
            ["kind"]
        ),
        (
            .init(
                minorUserID: FamilyCallers.minor().id.description, kind: .viewFlaggedMedia,
                subjectID: String(repeating: "é", count: 201), summary: "   "), ["subject_id", "summary"]
        ),
        (
            .init(
                minorUserID: FamilyCallers.minor().id.description, kind: .joinEvent, subjectID: "e\t1",
                summary: "Join\nthe party"), ["subject_id", "summary"]
        ),
    ]

    @Test(arguments: malformed) func malformedAsksNameEveryBadField(
        request: Kindred_Family_V1_CreateApprovalRequestRequest, fields: [String]
    ) async throws {
        let refusal = await rpcError { try ApprovalAsk(request) }
        #expect(refusal?.code == .invalidArgument)
        #expect(refusal?.badFields == fields)
    }

    @Test func twoHundredCharactersAreEnough() throws {
        let longest = String(repeating: "é", count: 200)
        let ask = try ApprovalAsk(
            .init(
                minorUserID: FamilyCallers.minor().id.description, kind: .joinEvent, subjectID: longest,
                summary: longest))
        #expect(ask.summary == longest && ask.subjectID == longest)
    }
}
