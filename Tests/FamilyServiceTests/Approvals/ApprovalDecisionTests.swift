@testable import FamilyService
import FoundationEssentials
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `DecideApprovalRequest`: one decision per request, by a guardian of the minor, reported as an event and a
/// notice in the same transaction.
@Suite struct ApprovalDecisionTests {
    @Test func aGuardiansDecisionIsAnEventAndANoticeToTheMinor() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let asked = try await test.ask(minor)
            let decided = try await test.approvals.decide(asked.id, approve: true, as: guardian)
            #expect(
                decided.state == .approved && decided.decidedBy == guardian.accountUserID
                    && decided.decidedAt != nil
            )
            #expect(decided.id == asked.id && decided.summary == asked.summary)
            #expect(
                try await test.approvals.approval(asked.id, as: FamilyCallers.service) == decided)
            let events = try await test.events()
            #expect(events.map(\.type) == ["approval.decided"])
            #expect(events.first?.payload == .approvalDecided(.init(approval: decided.proto)))
            let inbox = try await test.inbox(minor)
            #expect(inbox.map(\.kind) == [Int(Kindred_Family_V1_NotificationKind.approvalDecided.rawValue)])
            #expect(inbox.map(\.dedupKey) == ["approval_decided:\(asked.id)"])
        }
    }

    @Test func theSameGuardianGivingTheSameAnswerAgainChangesNothing() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            let asked = try await test.ask(minor)
            let first = try await test.approvals.decide(asked.id, approve: false, as: guardian)
            let retry = try await test.approvals.decide(asked.id, approve: false, as: guardian)
            #expect(retry == first && retry.state == .denied)
            #expect(try await test.events().count == 1)
            #expect(try await test.inbox(minor).count == 1)
        }
    }

    @Test func aDecidedRequestCannotBeDecidedOtherwiseNorByTheOtherGuardian() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, mother, father) = (
                FamilyCallers.minor(), FamilyCallers.adult(), FamilyCallers.adult()
            )
            try await test.link(mother, to: minor)
            try await test.link(father, to: minor)
            let asked = try await test.ask(minor)
            let decided = try await test.approvals.decide(asked.id, approve: true, as: mother)
            for (guardian, approve) in [(mother, false), (father, true), (father, false)] {
                let refusal = await rpcError {
                    try await test.approvals.decide(asked.id, approve: approve, as: guardian)
                }
                #expect(refusal?.code == .failedPrecondition)
                #expect(refusal?.reason == "APPROVAL_ALREADY_DECIDED")
            }
            #expect(try await test.approvals.approval(asked.id, as: minor) == decided)
            #expect(try await test.events().count == 1)
        }
    }

    @Test func theMinorAndServicesMayNotDecideAndOthersAreToldThereIsNoSuchRequest() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, guardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            let (otherMinor, otherGuardian) = (FamilyCallers.minor(), FamilyCallers.adult())
            try await test.link(guardian, to: minor)
            try await test.link(otherGuardian, to: otherMinor)
            let asked = try await test.ask(minor)
            for seer in [minor, FamilyCallers.service] {
                let refusal = await rpcError {
                    try await test.approvals.decide(asked.id, approve: true, as: seer)
                }
                #expect(refusal?.code == .permissionDenied)
                #expect(refusal?.reason == "ONLY_GUARDIAN_MAY_DECIDE")
            }
            for stranger in [otherGuardian, otherMinor, FamilyCallers.caller(role: .admin)] {
                let refusal = await rpcError {
                    try await test.approvals.decide(asked.id, approve: true, as: stranger)
                }
                #expect(refusal?.code == .notFound && refusal?.reason == "APPROVAL_NOT_FOUND")
            }
            let unknown = await rpcError {
                try await test.approvals.decide(ApprovalID.generate(at: Date()), approve: true, as: guardian)
            }
            #expect(unknown?.code == .notFound)
            #expect(try await test.approvals.approval(asked.id, as: minor).state == .pending)
            #expect(try await test.events().isEmpty)
        }
    }

    @Test func twoGuardiansDecidingAtOnceMakeExactlyOneDecision() async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let test = ApprovalTest(pool)
            let (minor, mother, father) = (
                FamilyCallers.minor(), FamilyCallers.adult(), FamilyCallers.adult()
            )
            try await test.link(mother, to: minor)
            try await test.link(father, to: minor)
            for round in 0..<5 {
                let asked = try await test.ask(minor, subject: "event-\(round)")
                let outcomes = await withTaskGroup(of: Result<ApprovalRecord, any Error>.self) { group in
                    for (guardian, approve) in [(mother, true), (father, false)] {
                        group.addTask {
                            do {
                                return .success(
                                    try await test.approvals.decide(
                                        asked.id, approve: approve, as: guardian))
                            } catch {
                                return .failure(error)
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let winners = outcomes.compactMap { try? $0.get() }
                #expect(winners.count == 1)
                let losers = outcomes.compactMap { outcome -> String? in
                    guard case .failure(let error as RPCError) = outcome else { return nil }
                    return error.reason
                }
                #expect(losers == ["APPROVAL_ALREADY_DECIDED"])
                #expect(try await test.approvals.approval(asked.id, as: minor) == winners.first)
            }
            #expect(try await test.events().count == 5)
        }
    }
}
