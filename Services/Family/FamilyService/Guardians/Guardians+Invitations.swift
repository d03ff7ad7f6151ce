import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMail
import KindredMessages
import KindredPostgres
import KindredRPC

/// `InviteGuardian`: a minor mails a single-use link to a would-be guardian.
extension Guardians {
    /// The same address again no sooner than this.
    static let reinviteInterval: Duration = .seconds(10 * 60)
    /// At most this many invitations per minor in any 24 hours, so nobody mails strangers through us.
    static let invitationsPerDay = 10

    /// Invites `email` to be `caller`'s guardian; a retry with the same `requestID` returns the first
    /// invitation and mails nothing again.
    func invite(email text: String, requestID: String, as caller: Caller) async throws
        -> GuardianInvitationStore.Invitation
    {
        var violations = FieldViolations()
        violations.add("request_id", Self.requestIDProblem(requestID))
        let checked = violations.email("guardian_email", text)
        let email = try violations.throwIfAny(checked)
        guard let minor = caller.accountUserID, caller.isMinor else { throw FamilyError.inviterMustBeMinor }
        let now = clock.now
        return try await database.transaction { tx in
            guard try await ControlsLifecycleStore.lockMinor(minor, now: now, in: tx) else {
                throw FamilyError.inviterMustBeMinor
            }
            if let first = try await GuardianInvitationStore.invitation(
                minor: minor, requestID: requestID, emails: emails, in: tx)
            {
                guard email.matches(first.guardianEmail) else {
                    throw FamilyError.requestIDReused
                }
                return first
            }
            guard try await GuardianLinkStore.guardianIDs(ofMinor: minor, on: tx).count < Self.maximumPerMinor
            else {
                throw FamilyError.guardianLimitReached
            }
            try await checkRate(minor: minor, email: email, now: now, in: tx)
            let invitation = GuardianInvitationStore.Invitation(
                id: .generate(at: now), minorID: minor, requestID: requestID,
                guardianEmail: email.address,
                createdAt: now,
                expiresAt: now.addingTimeInterval(Double(Self.invitationLifetime.components.seconds)),
                acceptedBy: nil)
            let token = OpaqueToken.generate()
            let superseded = try await GuardianInvitationStore.pending(
                minor: minor, now: now, emails: emails, on: tx
            ).filter { email.matches($0.guardianEmail) }
            try await GuardianInvitationStore.insert(
                invitation, token: token, superseding: superseded, emails: emails, in: tx)
            let inviter = try await ProfileStore.read(minor, names: nil, on: tx).displayName
            try await mail.send(
                try mail.guardianInvitation(to: email.address, from: inviter, token: token), in: tx)
            return invitation
        }
    }

    /// Refuses a new invitation to an address invited within `reinviteInterval`, or past
    /// `invitationsPerDay`, with the time until one would be accepted. The day's invitations are opened to
    /// compare addresses: the re-invite interval is shorter than the day.
    private func checkRate(minor: UserID, email: Email, now: Date, in tx: PostgresTransaction) async throws {
        let day = 24 * 3_600.0
        let recent = try await GuardianInvitationStore.made(
            by: minor, since: now.addingTimeInterval(-day), emails: emails, in: tx)
        var waitUntil: Date?
        if let last = recent.last(where: { email.matches($0.guardianEmail) }) {
            let next = last.createdAt.addingTimeInterval(Double(Self.reinviteInterval.components.seconds))
            if next > now { waitUntil = next }
        }
        if recent.count >= Self.invitationsPerDay, let oldest = recent.first?.createdAt {
            waitUntil = max(waitUntil ?? oldest, oldest.addingTimeInterval(day))
        }
        guard let waitUntil else { return }
        let seconds = Int64(waitUntil.timeIntervalSince(now).rounded(.up))
        throw FamilyError.invitationsRateLimited(retryAfter: .seconds(max(1, seconds)))
    }

    /// 1–128 printable ASCII characters.
    static func requestIDProblem(_ requestID: String) -> String? {
        guard (1...128).contains(requestID.utf8.count) else { return "must be 1 to 128 characters" }
        guard requestID.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "must be printable ASCII without spaces"
        }
        return nil
    }
}

extension GuardianInvitationStore.Invitation {
    /// The invitation as the wire carries it.
    var proto: Kindred_Family_V1_GuardianInvitation {
        Kindred_Family_V1_GuardianInvitation(
            invitationID: id.description, minorUserID: minorID.description, guardianEmail: guardianEmail,
            expiresAt: expiresAt)
    }
}
