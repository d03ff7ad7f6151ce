import KindredPostgres

extension Credentials {
    /// Deletes what sign-in no longer needs: refresh tokens past their expiry (with their chains) and failed
    /// sign-in counters forgotten a day after their last failure. Every instance may sweep; each delete is
    /// idempotent, so they need no agreement.
    func sweep() async throws -> (refreshTokens: Int, signInCounters: Int) {
        (try await refreshTokens.sweep(), try await signIn.lockout.sweep())
    }

    /// Sweeps now and then every `interval` until the task is cancelled (the drain) or the pool closes.
    func runSweeps(every interval: Duration = .seconds(3_600)) async {
        while !Task.isCancelled {
            do {
                let (tokens, counters) = try await sweep()
                if tokens + counters > 0 {
                    logger.info(
                        "credentials swept",
                        metadata: [
                            "refresh_tokens": "\(tokens)", "sign_in_counters": "\(counters)",
                        ])
                }
            } catch let error as PostgresError where error.kind == .poolClosed {
                return
            } catch {
                logger.error("credentials sweep failed; retrying later", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
