@testable import FamilyService
import KindredHandlers
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Family as three replicas on one database, each with its own pool as pods have: a profile's daily limit of
/// mailed invitations holds for invitations arriving at once on every replica, not per replica.
@Suite struct InvitationRateReplicaTests {
    static let attempts = 40

    @Test func invitationsArrivingAtOnceOnThreeReplicasMailThirtyBetweenThem() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 31)
            let profile = try await stack.createBaby(mum).profileID
            let owner = try #require(UserID(mum.id))
            let pools = (0..<3).map { _ in
                PostgresPool(configuration: stack.pool.configuration, logger: FamilyTestDatabase.logger)
            }
            let replicas = pools.map { BabyProfiles(context: stack.context.onAnotherInstance($0)) }
            let answers = await withTaskGroup(of: String.self) { group in
                for index in 0..<Self.attempts {
                    group.addTask {
                        do {
                            let draft = try BabyInvitationDraft(
                                .init(
                                    requestID: "invite-\(index)", profileID: profile,
                                    email: "guest\(index)@example.com", role: .follower))
                            _ = try await replicas[index % replicas.count].invite(draft, by: owner)
                            return "OK"
                        } catch let error as RPCError {
                            return error.reason ?? "\(error.code)"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            for pool in pools { await pool.close() }
            #expect(answers.filter { $0 == "OK" }.count == BabyProfiles.invitationsPerDay, "\(answers)")
            #expect(
                answers.filter { $0 == "INVITATIONS_RATE_LIMITED" }.count
                    == Self.attempts - BabyProfiles.invitationsPerDay)
        }
    }
}
