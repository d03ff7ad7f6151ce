import Synchronization

/// The addresses behind one client's target, shared by its per-loop pools. A literal IP is its own answer and
/// never re-resolved; a name is resolved off the loops when the first call needs it, then again every
/// `resolveInterval` and soon after a connection ends or is told GOAWAY. A failed or empty answer keeps the
/// last good one: a DNS hiccup must not take every peer away.
final class TargetAddresses: Sendable {
    let target: ConnectTarget
    /// Bumped whenever the answer changes; a pool compares it with the one it built on, per call, with a
    /// single atomic load.
    let generation = Atomic<Int>(0)
    private let resolver: any NameResolver
    private let interval: Duration
    private let state = Mutex(State())

    private struct State {
        var addresses: [ResolvedAddress] = []
        var lastError: RPCError?
        var firstAnswerWaiters: [CheckedContinuation<Void, Never>] = []
        var refresher: Task<Void, Never>?
        /// The refresher sleeps on this until the interval passes or `refreshSoon` wakes it.
        var wakeUp: CheckedContinuation<Void, Never>?
        var wakeRequested = false
        var isClosed = false
    }

    /// Event-driven resolutions are at most this frequent, so a burst of closing connections is one lookup.
    static let minimumRefreshGap: Duration = .seconds(1)

    init(target: ConnectTarget, configuration: ClientConfiguration) {
        self.target = target
        resolver = configuration.resolver
        interval = configuration.resolveInterval
        if let literal = ResolvedAddress(numericHost: target.host, port: target.port) {
            state.withLock { $0.addresses = [literal] }
            generation.store(1, ordering: .releasing)
        }
    }

    /// The current answer and its generation.
    func snapshot() -> (addresses: [ResolvedAddress], generation: Int) {
        state.withLock { ($0.addresses, generation.load(ordering: .acquiring)) }
    }

    /// Returns at once once there is an answer; before the first, starts resolving and waits for it. Throws
    /// UNAVAILABLE when the first resolution failed (the next call tries again).
    func awaitFirstAnswer() async throws(RPCError) {
        if generation.load(ordering: .acquiring) > 0 { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let wakeUp = state.withLock { state -> CheckedContinuation<Void, Never>?? in
                guard !state.isClosed, state.addresses.isEmpty else { return nil }
                state.firstAnswerWaiters.append(waiter)
                guard state.refresher != nil else {
                    state.refresher = Task { [weak self] in await self?.refreshForever() }
                    return .some(nil)
                }
                // After a failed first answer the refresher sleeps: wake it rather than wait out the interval.
                state.wakeRequested = true
                defer { state.wakeUp = nil }
                return .some(state.wakeUp)
            }
            switch wakeUp {
            case nil: waiter.resume()
            case let sleeping?: sleeping?.resume()
            }
        }
        let failure = state.withLock { state -> RPCError? in
            state.addresses.isEmpty ? state.lastError ?? RPCError(.unavailable, "the client is closed") : nil
        }
        if let failure { throw failure }
    }

    /// Asks for a resolution soon (a connection ended or was told GOAWAY): the answer may have changed.
    func refreshSoon() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.wakeRequested = true
            defer { state.wakeUp = nil }
            return state.wakeUp
        }
        waiter?.resume()
    }

    /// Stops re-resolving.
    func close() {
        let (refresher, waiter, waiters) = state.withLock { state in
            state.isClosed = true
            defer {
                state.wakeUp = nil
                state.firstAnswerWaiters = []
            }
            return (state.refresher, state.wakeUp, state.firstAnswerWaiters)
        }
        refresher?.cancel()
        waiter?.resume()
        for waiter in waiters { waiter.resume() }
    }

    /// Resolves, then waits for the interval or a request (never closer than `minimumRefreshGap`), until closed.
    private func refreshForever() async {
        while !Task.isCancelled {
            await resolveOnce()
            try? await Task.sleep(for: Self.minimumRefreshGap)
            await waitForInterval()
            if state.withLock({ $0.isClosed }) { return }
        }
    }

    private func resolveOnce() async {
        let answer: Result<[ResolvedAddress], RPCError>
        do throws(RPCError) {
            let addresses = try await resolver.resolve(host: target.host, port: target.port)
            answer =
                addresses.isEmpty
                ? .failure(RPCError(.unavailable, "cannot resolve \(target.host)")) : .success(addresses)
        } catch {
            answer = .failure(error)
        }
        let waiters = state.withLock { state in
            switch answer {
            case .success(let addresses):
                if addresses != state.addresses {
                    state.addresses = addresses
                    generation.add(1, ordering: .releasing)
                }
                state.lastError = nil
            case .failure(let error):
                state.lastError = error
            }
            defer { state.firstAnswerWaiters = [] }
            return state.firstAnswerWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Sleeps until `interval - minimumRefreshGap` has passed or `refreshSoon` was called.
    private func waitForInterval() async {
        let timer = Task { [weak self, interval] in
            try? await Task.sleep(for: max(interval - Self.minimumRefreshGap, .zero))
            self?.refreshSoon()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.wakeRequested || state.isClosed {
                    state.wakeRequested = false
                    return true
                }
                state.wakeUp = waiter
                return false
            }
            if resumeNow { waiter.resume() }
        }
        state.withLock { $0.wakeRequested = false }
    }
}
