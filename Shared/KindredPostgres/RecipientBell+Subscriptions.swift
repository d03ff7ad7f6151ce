internal import Synchronization

/// Who listens: streams subscribe per recipient, and the listener rings them.
extension RecipientBell {
    /// Rings for `recipient` from now on; nil once the bell is closed.
    func subscribe(_ recipient: String) throws -> Subscription? {
        // Rung while the stream was busy sending: the newest ring waits, more add nothing.
        let (rings, continuation) = AsyncStream.makeStream(
            of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        return try state.withLock { state in
            guard !state.isClosed else { return nil }
            if state.listener == nil {
                let listener = try PostgresListener(
                    configuration: pool.configuration, channels: [channel], logger: logger)
                state.listener = listener
                state.follower = Task(executorPreference: pool.backgroundExecutor()) { [self] in
                    await follow(listener)
                }
                if let heads {
                    state.poller = Task(executorPreference: pool.backgroundExecutor()) { [self] in
                        await pollHeads(heads)
                    }
                }
            }
            state.nextID += 1
            state.recipients[recipient, default: Recipient()].streams[state.nextID] = continuation
            return Subscription(
                id: state.nextID, recipient: recipient, subscribedAt: state.recipients[recipient]!.rung,
                rings: rings)
        }
    }

    /// Forgets a stream that ended; the recipient's last read goes with their last stream.
    func unsubscribe(_ subscription: Subscription) {
        let continuation = state.withLock { state in
            let removed = state.recipients[subscription.recipient]?.streams.removeValue(
                forKey: subscription.id)
            state.recipients[subscription.recipient]?.cursors[subscription.id] = nil
            if state.recipients[subscription.recipient]?.streams.isEmpty == true {
                state.recipients[subscription.recipient] = nil
            }
            return removed
        }
        continuation?.finish()
    }

    /// Rings the recipients the listener hears of, and everyone when it (re)connects. The recipients of one
    /// delivery (a write's whole audience, announced in one statement after its commit) ring together, so their streams wake
    /// at once and their reads share one statement (`RecipientBell+Reading.swift`).
    private func follow(_ listener: PostgresListener) async {
        for await notification in listener.notifications {
            switch notification {
            case .notifications(_, let recipients): ring(Array(Set(recipients)))
            case .listening: ring(nil)
            }
        }
    }

    /// Rings the streams of `names` (of every recipient when nil) in this process, their reads already started.
    func ring(_ names: [String]?) {
        let ringing = state.withLock { state in
            let rung = (names ?? Array(state.recipients.keys)).filter { state.recipients[$0] != nil }
            for name in rung { state.recipients[name]?.rung += 1 }
            readAhead(rung, in: &state)
            return rung.flatMap { name -> [(AsyncStream<UInt64>.Continuation, UInt64)] in
                guard let recipient = state.recipients[name] else { return [] }
                return recipient.streams.values.map { ($0, recipient.rung) }
            }
        }
        for (continuation, rung) in ringing { continuation.yield(rung) }
    }
}
