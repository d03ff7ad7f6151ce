/// How connection threads report their connection's state, and how the pool's reachability follows.
extension PostgresPool {
    /// Observers to tell about a reachability change, and the calls to fail because of it.
    struct ReachabilityChange {
        var observers: [AsyncStream<Bool>.Continuation] = []
        var changed = false
        var failedJobs: [PostgresJob] = []
        var failure: PostgresError?
        /// A live idle connection to wake for queued work the lost one was woken for.
        var handOff: Int?
    }

    func connectionUp(_ index: Int) {
        let change = state.withLock { state in
            state.slots[index].isUp = true
            state.slots[index].hasTriedToConnect = true
            return setReachability(.reachable, in: &state)
        }
        if change.changed {
            logger.info(
                "PostgreSQL reachable", metadata: ["database": "\(configuration.redactedDescription)"])
        }
        change.observers.forEach { $0.yield(true) }
    }

    func connectFailed(_ index: Int, _ error: PostgresError) {
        let change = state.withLock { state in
            state.slots[index].hasTriedToConnect = true
            state.lastConnectionError = error
            return markUnreachableIfAllDown(&state)
        }
        apply(change)
    }

    func connectionLost(_ index: Int, _ error: PostgresError) {
        var change = state.withLock { state in
            state.slots[index].isUp = false
            state.slots[index].isIdle = false
            state.lastConnectionError = error
            // The transaction holding this connection is gone with it: its later calls must fail, not run
            // on a fresh connection outside the transaction.
            let orphans = state.slots[index].privateJobs
            state.slots[index].privateJobs.removeAll()
            state.slots[index].lease = nil
            var change = markUnreachableIfAllDown(&state)
            change.failedJobs += orphans
            change.handOff = state.shared.isEmpty ? nil : state.claimIdleWorker()
            return change
        }
        logger.warning("PostgreSQL connection lost", metadata: ["error": "\(error)"])
        change.failure = change.failure ?? .connectionLost(error.serverDetail)
        apply(change)
        if let handOff = change.handOff { workers[handOff].wake() }
    }

    private func apply(_ change: ReachabilityChange) {
        let failure = change.failure ?? .unavailable(nil)
        if change.changed { logger.error("PostgreSQL unreachable", metadata: ["error": "\(failure)"]) }
        change.failedJobs.forEach { $0.fail(failure) }
        change.observers.forEach { $0.yield(false) }
    }

    /// With no connection up and every thread having tried, the pool is unreachable: queued calls fail now.
    private func markUnreachableIfAllDown(_ state: inout PoolState) -> ReachabilityChange {
        guard !state.slots.contains(where: \.isUp), state.slots.allSatisfy(\.hasTriedToConnect) else {
            return ReachabilityChange()
        }
        var change = setReachability(.unreachable, in: &state)
        change.failedJobs = Array(state.shared)
        change.failure = state.unavailableError
        state.shared.removeAll()
        return change
    }

    private func setReachability(_ value: PoolState.Reachability, in state: inout PoolState)
        -> ReachabilityChange
    {
        guard state.reachability != value else { return ReachabilityChange() }
        let wasReachable = state.reachability == .reachable
        state.reachability = value
        // Observers start from "not reachable", so only changes to or from .reachable are news to them.
        guard wasReachable || value == .reachable else { return ReachabilityChange(changed: true) }
        return ReachabilityChange(observers: Array(state.observers.values), changed: true)
    }
}
