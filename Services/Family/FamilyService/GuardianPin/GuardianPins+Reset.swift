import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

extension GuardianPins {
    /// How long a mailed PIN reset link works.
    static let resetLifetime: Duration = .seconds(24 * 60 * 60)

    /// Mails `caller`, a guardian of `minorID`, a single-use link to set a new PIN, replacing any earlier
    /// link; until it is used or expires the minor's controls and PIN cannot change. Returns its expiry.
    func requestReset(of minorID: UserID, caller: Caller) async throws -> Date {
        let guardianID = try await database.transaction { tx in
            let guardianID = try await MinorAccess.requireGuardian(caller, of: minorID, on: tx)
            guard try await GuardianPinStore.lock(minorID, on: tx) != nil else { throw FamilyError.pinNotSet }
            return guardianID
        }
        async let guardian = account(guardianID)
        async let minor = account(minorID)
        let (to, about) = try await (guardian, minor)
        let now = clock.now
        let expiresAt = now.addingTimeInterval(Double(Self.resetLifetime.components.seconds))
        let token = OpaqueToken.generate()
        let email = secrets.resetEmails.seal(to.email, of: ResetLinkKey(hash: token.storageHash))
        try await database.transaction { tx in
            try await GuardianPinResetStore.issue(
                token, of: minorID, guardianID: guardianID, email: email, now: now, expiresAt: expiresAt,
                on: tx)
            try await mail.send(
                try mail.guardianPinReset(
                    to: to.email, guardian: to.username, minor: about.username, token: token),
                in: tx)
        }
        return expiresAt
    }

    /// Sets a new PIN with the token of a reset link, using the link up: clears the pending reset, the
    /// lockout and every guardian session of the minor, and mails the guardian a confirmation. Returns the
    /// minor's id. The link is checked before the hash, so nobody without a live link spends Argon2id.
    func reset(token text: String, pin: String, confirmation: String) async throws -> UserID {
        var violations = FieldViolations()
        violations.require("token", text)
        try GuardianPinRules.checkNewPin(pin, confirmation: confirmation, violations: violations)
        let token = OpaqueToken(text: text)
        let now = clock.now
        return try await database.transaction { tx in
            guard let reset = try await GuardianPinResetStore.redeem(token, now: now, on: tx) else {
                throw FamilyError.pinResetLinkRefused(
                    try await GuardianPinResetStore.problem(of: token, on: tx))
            }
            // A guardian whose link to the minor ended since the request has no say over the PIN any more.
            guard try await GuardianLinkStore.exists(guardian: reset.guardianID, minor: reset.minorID, on: tx)
            else {
                throw FamilyError.pinResetLinkRefused(.unknown)
            }
            let email = try secrets.resetEmails.open(reset.email, of: reset.link)
            let hash = secrets.hashes.seal(
                try await pinHashing { try await hasher.hash(pin) }, of: reset.minorID)
            try await GuardianPinStore.replace(reset.minorID, hash: hash, now: now, on: tx)
            try await GuardianPinResetStore.retire(reset.minorID, now: now, on: tx)
            try await GuardianSessionStore.endAll(reset.minorID, on: tx)
            try await mail.send(try mail.guardianPinResetDone(to: email), in: tx)
            return reset.minorID
        }
    }
}
