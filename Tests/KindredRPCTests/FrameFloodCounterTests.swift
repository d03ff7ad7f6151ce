import Testing
@testable import KindredRPC

@Suite struct FrameFloodCounterTests {
    @Test func oneFrameOverTheLimitInAWindowIsAFlood() {
        var counter = FrameFloodCounter(limit: 3, window: .seconds(10), now: 0)
        let underTheLimit = (0..<3).map { _ in counter.record(.ping, now: 1) }
        #expect(underTheLimit == [false, false, false])
        let overTheLimit = counter.record(.ping, now: 2)
        #expect(overTheLimit)
    }

    @Test func aNewWindowStartsTheCountAgain() {
        var counter = FrameFloodCounter(limit: 2, window: .seconds(1), now: 0)
        _ = counter.record(.ping, now: 0)
        _ = counter.record(.ping, now: 0)
        let inTheNextWindow = counter.record(.ping, now: 1_000_000_000)
        #expect(!inTheNextWindow)
        #expect(counter.count == 1)
    }
}

@Suite struct FrameHeaderScannerTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    func scan(_ chunks: [[UInt8]]) -> [FrameHeaderScanner.Header] {
        var scanner = FrameHeaderScanner()
        var headers: [FrameHeaderScanner.Header] = []
        for chunk in chunks { chunk.withUnsafeBytes { scanner.scan($0) { headers.append($0) } } }
        return headers
    }

    @Test func findsEveryFrameHeaderAfterThePrefaceWhereverTheReadsSplitThem() {
        let settings = RawFrame(type: 4).bytes
        let data = RawFrame(type: 0, flags: 1, streamID: 3, payload: [1, 2, 3, 4, 5]).bytes
        let priority = RawFrame(type: 2, streamID: 0x7FFF_FFFF, payload: [0, 0, 0, 0, 15]).bytes
        let bytes = Self.preface + settings + data + priority
        let whole = scan([bytes])
        #expect(whole.map(\.type) == [4, 0, 2])
        #expect(whole.map(\.streamID) == [0, 3, 0x7FFF_FFFF])
        #expect(whole.map(\.length) == [0, 5, 5])
        #expect(whole[1].flags == 1)
        for split in 1..<bytes.count {
            let parts = scan([Array(bytes[..<split]), Array(bytes[split...])])
            #expect(parts.map(\.type) == [4, 0, 2], "split at \(split)")
        }
        #expect(scan(bytes.map { [$0] }).map(\.streamID) == [0, 3, 0x7FFF_FFFF], "one byte at a time")
    }
}
