public import FoundationEssentials

/// An event with a cursor: what an `EventConsumer` reads and remembers. A proto `Event` conforms with an
/// empty extension (`extension Kindred_Identity_V1_Event: SequencedEvent {}`), since it has `cursor` and
/// `traceparent`.
public protocol SequencedEvent: Sendable {
    /// The event's position in its outbox: cursors increase, and a stream delivers them in order.
    var cursor: Int64 { get }
    /// The W3C `traceparent` of the work that wrote the event; empty when it was written outside a trace.
    /// The consumer handles the event in a new span of that trace.
    var traceparent: String { get }
}

/// One sequenced event of an outbox, as a stream serves it.
public struct OutboxEvent: SequencedEvent, Equatable {
    /// The event's position; the first event of an outbox has cursor 1, the next 2, and so on.
    public let cursor: Int64
    /// What happened, `"user.registered"`.
    public let type: String
    /// The writing service's serialized event: opaque to this module.
    public let payload: [UInt8]
    /// The start of the transaction that appended it (PostgreSQL's `now()`).
    public let occurredAt: Date
    /// The writer's trace; empty when it wrote outside one.
    public let traceparent: String

    /// Creates an event; the outbox makes these, tests may too.
    public init(cursor: Int64, type: String, payload: [UInt8], occurredAt: Date, traceparent: String = "") {
        self.cursor = cursor
        self.type = type
        self.payload = payload
        self.occurredAt = occurredAt
        self.traceparent = traceparent
    }
}

/// The events right after a stream's cursor were pruned (older than the outbox's retention): a consumer
/// offline that long has missed events for good and must resync its copy from the source's other RPCs.
public struct EventsPruned: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cursor the stream was asked to continue after.
    public let afterCursor: Int64
    /// The oldest cursor the outbox still holds.
    public let oldestRetained: Int64

    /// One line for logs.
    public var description: String {
        "events after cursor \(afterCursor) were pruned; the oldest retained is \(oldestRetained): resync"
    }
}
