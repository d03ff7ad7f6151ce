@testable import KindredRPC
import Testing

/// The request bytes nghttp2 reads from: deferred while an open body runs dry, ended only once complete.
@Suite struct HTTP2RequestBodyTests {
    /// Reads up to `length` bytes; what the read answered and the bytes it copied.
    static func read(_ body: HTTP2RequestBody, _ length: Int) -> (HTTP2RequestBody.Read, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: length)
        let read = buffer.withUnsafeMutableBufferPointer { body.read(into: $0.baseAddress!, length: length) }
        guard case .bytes(let count, _) = read else { return (read, []) }
        return (read, Array(buffer.prefix(count)))
    }

    @Test func anOpenBodyDefersWhenDryAndEndsOnlyOnceComplete() {
        let body = HTTP2RequestBody([], isComplete: false)
        var taken = 0
        body.onTaken = { taken += 1 }
        #expect(Self.read(body, 16).0 == .deferred)
        body.append(Array(1...10))
        #expect(Self.read(body, 4) == (.bytes(4, isLast: false), [1, 2, 3, 4]))
        #expect(Self.read(body, 100) == (.bytes(6, isLast: false), [5, 6, 7, 8, 9, 10]))
        #expect(Self.read(body, 16).0 == .deferred)
        #expect(taken == 2)
        body.complete()
        #expect(Self.read(body, 16).0 == .bytes(0, isLast: true))
        #expect(taken == 2)  // an empty read took nothing
    }

    @Test func bytesAppendedAfterPartialReadsComeOutInOrder() {
        let body = HTTP2RequestBody([], isComplete: false)
        body.append((0..<100).map { UInt8($0) })
        #expect(Self.read(body, 60).1 == (0..<60).map { UInt8($0) })
        body.append((100..<110).map { UInt8($0) })  // drops the 60 bytes already sent first
        body.complete()
        #expect(body.pendingCount == 50)
        #expect(Self.read(body, 1_000) == (.bytes(50, isLast: true), (60..<110).map { UInt8($0) }))
    }

    @Test func aCompleteBodyEndsWithItsLastByte() {
        let body = HTTP2RequestBody([1, 2, 3])
        #expect(Self.read(body, 2) == (.bytes(2, isLast: false), [1, 2]))
        #expect(Self.read(body, 2) == (.bytes(1, isLast: true), [3]))
    }
}
