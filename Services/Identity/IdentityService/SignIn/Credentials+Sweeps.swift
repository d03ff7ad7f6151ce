import KindredRuntime

extension Credentials {
    /// Deletes what sign-in no longer needs: refresh tokens past their expiry (with their chains) and failed
    /// sign-in counters forgotten a day after their last failure. Every instance may sweep; each delete is
    /// idempotent, so they need no agreement.
    func sweep() async throws -> (refreshTokens: Int, signInCounters: Int) {
        (try await refreshTokens.sweep(), try await signIn.lockout.sweep())
    }

    /// Sweeps hourly until the drain.
    func runSweeps() async {
        await runHourly("credentials sweep", logger: logger) {
            let (tokens, counters) = try await sweep()
            if tokens + counters > 0 {
                logger.info(
                    "credentials swept",
                    metadata: ["refresh_tokens": "\(tokens)", "sign_in_counters": "\(counters)"])
            }
        }
    }
}
