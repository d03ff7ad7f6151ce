import Foundation
import KindredHandlers
import KindredMessages
@testable import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// The `WatchMessages` streams of one recipient in one process read their inbox once per wake-up and share the
/// rows, each at its own cursor; other recipients' streams neither read nor receive for it.
@Suite struct WatchMessagesSharedReadTests {
    @Test func tenStreamsOfOneRecipientReadOneMessageWithOneSelectAndOthersStreamsDoNotRead() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            let cat = try await stack.register("cat", age: 32)
            let dan = try await stack.register("dan", age: 33)
            let watcher = InboxWatcher(stack)
            // Dan's stream opens the bell's LISTEN; once its first ring (the listener connected) was read for,
            // every later ring is a message's.
            let primer = watcher.watch(dan, after: 0)
            try await eventually("the bell listened") {
                watcher.reads.value.contains { $0.0 == dan.id }
            }

            try await stack.send("missed", from: ann, to: bob)
            let missedAt = try await MessageStore.inboxPosition(of: bob.userID, on: stack.pool)
            try await stack.send("caught up", from: ann, to: bob)
            // Announced after bob's, so bob's rang before any of his streams below subscribed.
            try await stack.send("flush", from: ann, to: dan)
            try await eventually("dan's stream got the flush") { primer.texts == ["flush"] }

            let bobs = (0..<10).map { _ in watcher.watch(bob, after: missedAt) }
            try await eventually("bob's streams caught up") {
                bobs.allSatisfy { $0.texts == ["caught up"] }
            }
            let cats = (0..<3).map { _ in watcher.watch(cat, after: 0) }
            try await eventually("cat's streams subscribed") {
                watcher.messages.bell.state.withLock { $0.recipients[cat.id]?.streams.count } == 3
            }
            let readsBefore = watcher.reads.value.count

            try await stack.send("for bob", from: ann, to: bob)
            try await eventually("bob's streams got it") {
                bobs.allSatisfy { $0.texts == ["caught up", "for bob"] }
            }
            let caughtUp = try await MessageStore.inboxPosition(of: bob.userID, on: stack.pool) - 1
            #expect(watcher.reads.value.dropFirst(readsBefore).map(\.0) == [bob.id])
            #expect(watcher.reads.value.dropFirst(readsBefore).map(\.1) == [caughtUp])

            try await stack.send("for cat", from: ann, to: cat)
            try await eventually("cat's streams got it") {
                cats.allSatisfy { $0.texts == ["for cat"] }
            }
            #expect(watcher.reads.value.dropFirst(readsBefore).map(\.0) == [bob.id, cat.id])
            #expect(bobs.allSatisfy { $0.texts == ["caught up", "for bob"] })
            await watcher.stop()
        }
    }

    @Test func aStreamThatEndsWhileTheReadItStartedIsUnderWayLeavesTheRowsToTheOthers() async throws {
        try await SocialTestStack.with { stack in
            let ann = try await stack.register("ann", age: 30)
            let bob = try await stack.register("bob", age: 31)
            try await stack.send("hello", from: ann, to: bob)
            let gate = Gate()
            let watcher = InboxWatcher(stack, holdingReadsAt: gate)
            let bell = watcher.messages.bell
            let leaving = try #require(try bell.subscribe(bob.id))
            let staying = try #require(try bell.subscribe(bob.id))
            let started = Task { try await bell.rows(after: 0, since: 0, for: leaving) }
            try await eventually("the read started") { watcher.reads.value.count == 1 }
            let shared = Task { try await bell.rows(after: 0, since: 0, for: staying) }
            started.cancel()
            bell.unsubscribe(leaving)
            gate.open()
            #expect(try await shared.value.map(\.message.body) == ["hello"])
            #expect(watcher.reads.value.count == 1)
            _ = await started.result
            bell.unsubscribe(staying)
            await watcher.stop()
        }
    }
}

/// `WatchMessages` streams run in-process by one `Messages` whose inbox reads are recorded as they start: each
/// recipient a statement reads, with its cursor.
final class InboxWatcher: Sendable {
    let messages: Messages
    let reads = Locked<[(String, Int64)]>([])
    private let streams = Locked<[Task<Void, any Error>]>([])

    /// Reads go to `stack`'s database once `gate` (if any) is open.
    init(_ stack: SocialTestStack, holdingReadsAt gate: Gate? = nil) {
        let reads = reads, pool = stack.pool, bodies = stack.context.messageBodies
        messages = Messages(
            context: stack.context,
            readInbox: RecipientBell.keyed(by: { UserID($0) }) { positions, limit in
                reads.withLock {
                    $0.append(
                        contentsOf: positions.map { ($0.key.description, $0.value) }.sorted { $0.0 < $1.0 })
                }
                await gate?.wait()
                return try await MessageStore.received(
                    after: positions, limit: limit, bodies: bodies, on: pool)
            })
    }

    /// A stream of `user`'s after `cursor`, collecting the texts it sends.
    func watch(_ user: TestUser, after cursor: Int64) -> Deliveries {
        let deliveries = Deliveries()
        let messages = messages
        let stream = Task { try await messages.watch(for: user.userID, after: cursor) { deliveries.add($0) } }
        streams.withLock { $0.append(stream) }
        return deliveries
    }

    /// Ends every stream and closes the bell.
    func stop() async {
        for stream in streams.value {
            stream.cancel()
            _ = await stream.result
        }
        await messages.bell.close()
    }
}

/// What one stream sent.
final class Deliveries: Sendable {
    private let received = Locked<[Kindred_Social_V1_Message]>([])

    func add(_ message: Kindred_Social_V1_Message) { received.withLock { $0.append(message) } }

    var texts: [String] { received.value.map(\.text) }
    var all: [Kindred_Social_V1_Message] { received.value }
}

/// Holds whoever waits until it opens.
final class Gate: Sendable {
    private let state = Locked<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }
}
