extension IdentityAPI {
    /// How long `ResendVerification` and `RequestPasswordReset` take at least, whatever they did: mailing a
    /// known address costs a token insert, a queued mail and a commit that an unknown one does not, and the
    /// time must not tell which it was.
    static let emailAnswerFloor: Duration = .milliseconds(200)
}

/// Runs `body`, then answers — returns or throws what it did — no sooner than `floor` after the start: for a
/// call whose work depends on a secret (whether an email has an account) but whose answer must not, so that
/// its duration does not tell either.
func answering<Value: Sendable>(
    noSoonerThan floor: Duration, _ body: () async throws -> Value
) async throws -> Value {
    let answerAt = ContinuousClock.now + floor
    let outcome: Result<Value, any Error>
    do {
        outcome = .success(try await body())
    } catch {
        outcome = .failure(error)
    }
    try? await Task.sleep(until: answerAt)
    return try outcome.get()
}
