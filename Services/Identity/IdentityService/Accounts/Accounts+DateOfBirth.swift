import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `ChangeDateOfBirth` and `ConfirmDateOfBirthChange`: the password again, then a link to the account's
/// email; only the confirmed change takes effect, with the age band derived afresh.
extension Accounts {
    /// Starts a change of `accountID`'s date of birth: checks the date and the password, replaces any pending
    /// change, and mails the confirmation link.
    func requestDateOfBirthChange(
        accountID: UserID, password: String, dateOfBirth: DateComponents?
    ) async throws {
        let now = clock.now
        let today = CalendarDate(utcDayOf: now)
        var violations = FieldViolations()
        violations.require("password", password)
        let birth = AccountFieldRules.dateOfBirth(dateOfBirth, today: today)
        if case .failure(let problem) = birth { violations.add("date_of_birth", problem.description) }
        try violations.throwIfAny()
        guard case .success(let newDate) = birth else { preconditionFailure("a refused date was recorded") }
        guard AgePolicy.band(bornOn: newDate, on: today) != nil else { throw IdentityError.ageBelowMinimum }
        try await confirmPassword(password, accountID: accountID)
        try await database.transaction { tx in
            guard let account = try await AccountStore.addressee(id: accountID, emails: emails, on: tx) else {
                throw IdentityError.noAccount
            }
            try await EmailTokenStore.retire(.confirmDateOfBirth, accountID: accountID, now: now, on: tx)
            let token = try await EmailTokenStore.issueDateOfBirthConfirmation(
                accountID: accountID, newDate: newDate, dates: birthDates, now: now,
                lifetime: Self.emailTokenLifetime, on: tx)
            try await mail.send(
                mail.dateOfBirthConfirmation(
                    to: account.email, username: account.username, newDate: newDate, token: token),
                in: tx)
        }
    }

    /// Applies the change the token confirms; returns the account's age band from now on. A minor whose
    /// corrected date makes them an adult has come of age, and `user.came_of_age` says so.
    func confirmDateOfBirthChange(token text: String) async throws -> TokenClaims.AgeBand {
        try FieldViolations.require(["token": text])
        let now = clock.now
        let outcome: Result<TokenClaims.AgeBand, RPCError> = try await database.transaction { tx in
            let token = OpaqueToken(text: text)
            let redemption = try await EmailTokenStore.redeem(
                token, for: .confirmDateOfBirth, now: now, on: tx)
            guard case .redeemed(let accountID, let stored?) = redemption else {
                return .failure(IdentityError.linkRefused(redemption, link: "confirmation"))
            }
            let newDate = try birthDates.open(stored, at: .emailToken(tokenHash: token.storageHash))
            // Ages only grow, so a date accepted when the change was requested is still old enough.
            guard let band = AgePolicy.band(bornOn: newDate, on: CalendarDate(utcDayOf: now)) else {
                return .failure(IdentityError.ageBelowMinimum)
            }
            guard
                let before = try await AccountStore.changeDateOfBirth(
                    id: accountID, to: newDate, band: band, now: now, dates: birthDates, on: tx)
            else { return .failure(IdentityError.noAccount) }
            if before.isMinor && !band.isMinor { try await emit(.cameOfAge(userID: accountID), in: tx) }
            return .success(band)
        }
        return try outcome.get()
    }
}
