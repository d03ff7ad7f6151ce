import Glibc
@testable import KindredRPC

/// Holds an event loop's thread in a job from `init` until `release()`: what arrives meanwhile waits unread.
final class LoopHold: Sendable {
    private let held: [Int32]
    private let released: [Int32]

    init(_ loop: EventLoop) {
        var held: [Int32] = [-1, -1]
        var released: [Int32] = [-1, -1]
        precondition(pipe(&held) == 0 && pipe(&released) == 0)
        (self.held, self.released) = (held, released)
        loop.execute { [held, released] in
            var byte: UInt8 = 1
            _ = write(held[1], &byte, 1)
            _ = read(released[0], &byte, 1)
        }
        var byte: UInt8 = 0
        _ = read(held[0], &byte, 1)
    }

    func release() {
        var byte: UInt8 = 1
        _ = write(released[1], &byte, 1)
    }

    deinit {
        for fd in held + released { close(fd) }
    }
}
