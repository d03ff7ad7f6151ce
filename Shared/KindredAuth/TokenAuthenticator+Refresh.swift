/// Fetching keys: once at a time, at most once per interval.
extension TokenAuthenticator {
    /// Fetches the keys again unless a fetch is under way (then waits for it) or one started less than
    /// `refreshInterval` ago; true when the keys the verifier holds are the source's latest.
    func refreshKeys() async -> Bool {
        enum Step {
            case wait(Task<Bool, Never>)
            case settled(Bool)
        }
        let now = ContinuousClock.now
        let step = refreshState.withLock { state -> Step in
            if let running = state.inFlight { return .wait(running) }
            if let last = state.lastStart, now < last + refreshInterval {
                return .settled(state.lastSucceeded)
            }
            state.lastStart = now
            // Detached: the fetch must not inherit the deadline or the cancellation of the call that
            // happened to start it, since every other waiting call depends on it too.
            let fetch = Task.detached { await self.fetchKeys() }
            state.inFlight = fetch
            return .wait(fetch)
        }
        switch step {
        case .wait(let fetch): return await fetch.value
        case .settled(let succeeded): return succeeded
        }
    }

    private func fetchKeys() async -> Bool {
        let succeeded: Bool
        do {
            verifier.replaceKeys(try await keySource.verificationKeys())
            succeeded = true
        } catch {
            // The source reports its own failures: it knows where it was reaching.
            succeeded = false
        }
        refreshState.withLock { state in
            state.inFlight = nil
            state.lastSucceeded = succeeded
        }
        return succeeded
    }
}
