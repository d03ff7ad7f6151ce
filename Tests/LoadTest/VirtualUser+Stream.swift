import KindredAPI
import KindredMessages
import KindredRPC

extension VirtualUser {
    /// Holds WatchMessages until `end`, handing each message to `deliveries`; when the stream ends early it is
    /// opened again after the last cursor it got, so nothing sent meanwhile is lost (a failure is recorded).
    func holdMessageStream(until end: ContinuousClock.Instant) async {
        var cursor: Int64 = 0
        var counted = false
        while ContinuousClock.now < end, !Task.isCancelled {
            guard var options = try? await options(timeout: end - .now) else {
                try? await Task.sleep(for: .seconds(1))
                continue
            }
            options.timeout = end - .now
            let stream = Social.Client(clients.social).watchMessages(
                .init(afterCursor: cursor), options: options)
            streams.opened(index)
            if !counted {
                recorder.openStreams.add(1, ordering: .relaxed)
                counted = true
            }
            do {
                for try await message in stream {
                    cursor = max(cursor, message.cursor)
                    deliveries.arrived(text: message.text)
                }
            } catch  where error.code == .deadlineExceeded || error.code == .cancelled {
                break
            } catch {
                recorder.record(
                    Social.Method.watchMessages.rpcName + " (stream ended)", latency: .zero,
                    failure: "\(error.code)")
            }
        }
        streams.closed(index)
        if counted { recorder.openStreams.subtract(1, ordering: .relaxed) }
    }
}
