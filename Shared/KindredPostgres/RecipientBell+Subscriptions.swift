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

    /// Rings for each recipient the listener hears of, and for everyone when it (re)connects.
    private func follow(_ listener: PostgresListener) async {
        for await notification in listener.notifications {
            switch notification {
            case .notification(_, let recipient): ring([recipient])
            case .listening: ring(nil)
            }
        }
    }

    /// Rings the streams of `names` (of every recipient when nil) in this process.
    func ring(_ names: [String]?) {
        let ringing = state.withLock { state in
            (names ?? Array(state.recipients.keys)).flatMap {
                name -> [(AsyncStream<UInt64>.Continuation, UInt64)] in
                guard var recipient = state.recipients[name] else { return [] }
                recipient.rung += 1
                state.recipients[name] = recipient
                return recipient.streams.values.map { ($0, recipient.rung) }
            }
        }
        for (continuation, rung) in ringing { continuation.yield(rung) }
    }
}
