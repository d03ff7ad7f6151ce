import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `RegisterAccount`: validate every field, refuse under-13s leaving only a count, create the account with
/// its verification email and `user.registered` in one transaction, and answer a retried request id with
/// the account it created.
extension Accounts {
    /// A registration whose every field passed validation.
    struct RegistrationForm: Sendable {
        let requestID: String
        let email: String
        let username: String
        let password: String
        let dateOfBirth: CalendarDate
    }

    /// Creates the account `request` describes, or returns the one an earlier call with its request id made.
    func register(_ request: Kindred_Identity_V1_RegisterAccountRequest) async throws -> AccountRecord {
        let now = clock.now
        let today = CalendarDate(utcDayOf: now)
        let form = try Self.validate(request, today: today)
        guard let band = AgePolicy.band(bornOn: form.dateOfBirth, on: today) else {
            try await AccountStore.countRefusedRegistration(on: today, on: database)
            throw IdentityError.ageBelowMinimum
        }
        if let earlier = try await AccountStore.registration(
            requestID: form.requestID, dates: birthDates, emails: emails, on: database)
        {
            return try await replay(earlier, of: form)
        }
        let account = AccountStore.NewAccount(
            id: UserID.generate(at: now), username: form.username, email: form.email,
            passwordHash: try await hashing { try await passwords.hash(form.password) },
            dateOfBirth: form.dateOfBirth, ageBand: band,
            requestID: form.requestID, now: now)
        if let created = try await create(account) { return created }
        // A unique key was taken. A concurrent retry of this very request may have won: answer as it did.
        if let earlier = try await AccountStore.registration(
            requestID: form.requestID, dates: birthDates, emails: emails, on: database)
        {
            return try await replay(earlier, of: form)
        }
        let taken = try await AccountStore.taken(
            username: form.username, email: form.email, emails: emails, on: database)
        if taken.username { throw IdentityError.usernameTaken }
        if taken.email { throw IdentityError.emailTaken }
        // The conflicting account was deleted in between: nothing was created, and a retry will succeed.
        throw RPCError(.aborted, "A concurrent change interfered with the registration; retry it.")
    }

    /// Inserts the account, its verification token and email, and `user.registered`; nil if a key is taken.
    private func create(_ account: AccountStore.NewAccount) async throws -> AccountRecord? {
        try await database.transaction { tx in
            guard try await AccountStore.insert(account, dates: birthDates, emails: emails, on: tx) else {
                return nil
            }
            let token = try await EmailTokenStore.issue(
                .verifyEmail, accountID: account.id, now: account.now, lifetime: Self.emailTokenLifetime,
                on: tx)
            try await mail.send(
                mail.verification(to: account.email, username: account.username, token: token), in: tx)
            try await emit(
                .registered(
                    userID: account.id, ageBand: account.ageBand, parentalControls: account.ageBand.isMinor),
                in: tx)
            return try await AccountStore.account(
                id: account.id, now: account.now, dates: birthDates, emails: emails, on: tx)
        }
    }

    /// The first answer to a retried request id, if the retry is the same registration. Anyone can send a
    /// guessed request id, so the account is returned only to a request that also knows its password.
    private func replay(_ earlier: AccountStore.Registration, of form: RegistrationForm) async throws
        -> AccountRecord
    {
        guard earlier.username == form.username, earlier.email == form.email,
            earlier.dateOfBirth == form.dateOfBirth,
            try await hashing({ try await passwords.verify(form.password, against: earlier.passwordHash) })
                != .mismatch,
            let account = try await AccountStore.account(
                id: earlier.id, now: clock.now, dates: birthDates, emails: emails, on: database)
        else { throw IdentityError.requestIDReused }
        return account
    }

    /// Every field's problems in one INVALID_ARGUMENT, or the form.
    static func validate(_ request: Kindred_Identity_V1_RegisterAccountRequest, today: CalendarDate)
        throws(RPCError) -> RegistrationForm
    {
        var violations = FieldViolations()
        violations.add("request_id", requestIDProblem(request.requestID))
        let email = violations.email("email", request.email)
        violations.add("username", AccountFieldRules.usernameProblem(request.username))
        violations.add(
            "password",
            PasswordPolicy.problem(request.password, username: request.username, email: request.email))
        let birth = AccountFieldRules.dateOfBirth(request.dateOfBirth, today: today)
        if case .failure(let problem) = birth { violations.add("date_of_birth", problem.description) }
        let address = try violations.throwIfAny(email).address
        guard case .success(let dateOfBirth) = birth else {
            preconditionFailure("a refused date was recorded")
        }
        return RegistrationForm(
            requestID: request.requestID, email: address, username: request.username,
            password: request.password, dateOfBirth: dateOfBirth)
    }

    /// A request id: 1–128 characters of printable ASCII, as a client's UUID or ULID would be.
    private static func requestIDProblem(_ requestID: String) -> String? {
        guard !requestID.isEmpty else {
            return "is required: a retry with the same request_id is answered once"
        }
        guard requestID.utf8.count <= 128, requestID.utf8.allSatisfy({ (33...126).contains($0) }) else {
            return "must be 1 to 128 printable ASCII characters"
        }
        return nil
    }
}
