#if canImport(Glibc)
import Glibc
#endif

extension EventLoop {
    /// Whether the caller runs on this loop's thread, or the loop has not started yet (what the debug-build
    /// assertions of the loop-owned types check).
    public var isOnLoopThread: Bool { thread == pthread_t() || inEventLoop }

    /// Traps in debug builds when the caller is not on this loop's thread (once the loop runs): what the
    /// loop-owned `@unchecked Sendable` types promise, checked where they are touched. `assert` is compiled
    /// out of release builds, so it costs nothing there.
    @inline(__always)
    public func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isOnLoopThread, "touched off its event loop", file: file, line: line)
    }
}

/// A value confined to one event loop, carried through `@Sendable` closures that hop back to it (as
/// swift-nio's `NIOLoopBound`): it is made and read only on `loop`, which debug builds check.
struct LoopBound<Value>: @unchecked Sendable {
    // @unchecked: `value` is touched only on `loop`'s thread, asserted in debug builds.
    let loop: EventLoop
    private let wrapped: Value

    init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        wrapped = value
    }

    var value: Value {
        loop.assertInLoop()
        return wrapped
    }
}
