import Synchronization

/// A value tasks can share.
public final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) {
        storage = Mutex(value)
    }

    public func withLock<T>(_ body: (inout Value) -> T) -> T {
        storage.withLock { body(&$0) }
    }

    public var value: Value { storage.withLock { $0 } }
}

/// A counter tasks can share.
public final class Counter: Sendable {
    private let count = Atomic(0)

    public init() {}

    /// Adds one; returns the new count.
    @discardableResult
    public func increment() -> Int {
        count.add(1, ordering: .relaxed).newValue
    }

    public var value: Int { count.load(ordering: .relaxed) }
}
