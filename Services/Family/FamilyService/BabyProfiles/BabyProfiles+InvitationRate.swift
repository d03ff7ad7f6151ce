import FoundationEssentials
import KindredPostgres
import KindredRPC

/// How often owners may mail links: a profile is not a way to mail strangers through us.
extension BabyProfiles {
    /// At most this many of a profile's invitations mailed (or resent) in any 24 hours.
    static let invitationsPerDay = 30
    /// The same invitation mailed again no sooner than this.
    static let resendInterval: Duration = .seconds(10 * 60)

    /// RESOURCE_EXHAUSTED `INVITATIONS_RATE_LIMITED`, with the time until one more may go, when `profile`
    /// mailed `invitationsPerDay` invitations in the last 24 hours.
    func requireRoomToMail(in profile: BabyProfileID, now: Date, _ tx: PostgresTransaction) async throws {
        let day = 24 * 3_600.0
        let recent = try await BabyInvitationStore.mailed(
            in: profile, since: now.addingTimeInterval(-day), tx)
        guard recent.count >= Self.invitationsPerDay, let oldest = recent.oldest else { return }
        throw Self.rateLimited(until: oldest.addingTimeInterval(day), now: now)
    }

    /// The same refusal when `invitation` was mailed less than `resendInterval` ago.
    func requireResendInterval(_ invitation: BabyInvitationStore.Invitation, now: Date) throws {
        let next = invitation.sentAt.addingTimeInterval(Double(Self.resendInterval.components.seconds))
        if next > now { throw Self.rateLimited(until: next, now: now) }
    }

    private static func rateLimited(until: Date, now: Date) -> RPCError {
        let seconds = Int64(until.timeIntervalSince(now).rounded(.up))
        return FamilyError.invitationsRateLimited(retryAfter: .seconds(max(1, seconds)))
    }
}
