import KindredAPI
import KindredMessages
import KindredRPC
import KindredThreads

extension VirtualUser {
    typealias Family = Kindred_Family_V1_FamilyService

    /// Holds the streams the persona's app holds until `end`: WatchMessages, and for the baby personas
    /// WatchProfileActivity (all the user's profiles) and WatchNotifications.
    func holdStreams(until end: ContinuousClock.Instant) async {
        async let messages: Void = hold(shared.messages, from: Int64(0), until: end) { cursor, options in
            Social.Client(clients.social).watchMessages(.init(afterCursor: cursor), options: options)
        } received: { message in
            (message.cursor, message.text)
        }
        if persona.watchesProfiles {
            async let notifications: Void = hold(shared.notifications, from: "", until: end) {
                after, options in
                Family.Client(clients.family).watchNotifications(
                    .init(afterNotificationID: after), options: options)
            } received: { notification in
                (notification.notificationID, notification.body)
            }
            await hold(shared.activity, from: "", until: end) { cursor, options in
                Family.Client(clients.family).watchProfileActivity(
                    .init(afterCursor: cursor), options: options)
            } received: { update in
                (update.cursor, update.activity?.detail ?? "")
            }
            await notifications
        }
        await messages
    }

    /// Holds one stream until `end`, handing each text it carries to the stream's deliveries; when the stream
    /// ends early it is opened again after the last cursor it got, so nothing sent meanwhile is lost (the
    /// early end is recorded as a failure of `<stream> (stream ended)`), after a backoff that doubles while it
    /// keeps failing: past the knee, streams reopened at once would be a storm of their own. A stream a draining
    /// replica ends (SERVER_SHUTTING_DOWN) is reopened at once and counted under
    /// `<stream> (stream handed over by a drain)` as expected: the drain is how a rolling restart moves it.
    private func hold<Response: ProtoMessage, Cursor: Sendable & Equatable>(
        _ live: LiveStream, from start: Cursor, until end: ContinuousClock.Instant,
        open: (Cursor, CallOptions) -> ClientResponseStream<Response>,
        received: (Response) -> (cursor: Cursor, text: String)
    ) async {
        var cursor = start
        var counted = false
        var backoff = Backoff(initial: .milliseconds(250), ceiling: .seconds(5))
        var pause: Duration?
        while ContinuousClock.now < end, !Task.isCancelled {
            if let pause { try? await Task.sleep(until: min(.now + pause, end)) }
            guard var options = try? await authorizedOptions() else {
                pause = backoff.next()
                continue
            }
            options.deadline = end
            let stream = open(cursor, options)
            live.board.opened(index)
            if !counted {
                recorder.openStreams.add(1, ordering: .relaxed)
                counted = true
            }
            var handedOver = false
            do {
                for try await response in stream {
                    backoff.reset()
                    let (next, text) = received(response)
                    cursor = next
                    live.deliveries.arrived(text: text, recipient: index)
                }
            } catch  where error.code == .deadlineExceeded || error.code == .cancelled {
                break
            } catch  where error.reason == RPCError.serverShuttingDown.reason {
                // The replica drains; the next opening goes to another one, at once.
                recorder.record(live.handedOverLabel, latency: .zero, refused: true)
                handedOver = true
            } catch {
                recorder.record(live.endedLabel, latency: .zero, failure: Recorder.failure(of: error))
            }
            // A stream that got nothing yet has no place to resume from: it opens again "from now on", as an app
            // would, so what commits until then is not promised to it (it is settled again `Deliveries.settle`
            // after it opened), nor what was due to it and had not arrived. With a cursor, the next opening sends
            // what came meanwhile, and that stays due.
            if cursor == start {
                live.board.closed(index)
                live.deliveries.reopensWithoutCursor(recipient: index)
            }
            pause = handedOver ? nil : backoff.next()
        }
        live.board.closed(index)
        if counted { recorder.openStreams.subtract(1, ordering: .relaxed) }
    }
}
