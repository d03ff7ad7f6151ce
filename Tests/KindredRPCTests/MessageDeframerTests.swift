import Testing
@testable import KindredRPC

@Suite struct MessageDeframerTests {
    private func feed(_ chunks: [[UInt8]], limit: Int = 1 << 20) throws(FramingError) -> (
        [FramedMessage], Bool
    ) {
        var deframer = MessageDeframer(maxMessageSize: limit)
        var messages: [FramedMessage] = []
        for chunk in chunks {
            let result = chunk.withUnsafeBytes { bytes in
                Result { () throws(FramingError) in try deframer.consume(bytes) { messages.append($0) } }
            }
            try result.get()
        }
        return (messages, deframer.isAtMessageBoundary)
    }

    @Test func wholeMessagesInOneChunk() throws {
        let (messages, boundary) = try feed([grpcFrames([1, 2], [], [3])])
        #expect(messages.map(\.bytes) == [[1, 2], [], [3]])
        #expect(boundary)
    }

    @Test(arguments: 1...9)
    func messagesSplitAtEveryOffsetReassemble(splitAt: Int) throws {
        let wire = grpcFrames([1, 2, 3], [4])
        let (messages, boundary) = try feed([Array(wire[..<splitAt]), Array(wire[splitAt...])])
        #expect(messages.map(\.bytes) == [[1, 2, 3], [4]])
        #expect(boundary)
    }

    @Test func byteByByteDeliveryReassembles() throws {
        let wire = grpcFrames([UInt8](repeating: 9, count: 300))
        let (messages, _) = try feed(wire.map { [$0] })
        #expect(messages.first?.bytes.count == 300)
    }

    @Test func compressedFlagIsReported() throws {
        let (messages, _) = try feed([[1, 0, 0, 0, 1, 42]])
        #expect(messages == [FramedMessage(compressed: true, bytes: [42])])
    }

    @Test func truncatedMessageIsNotAtABoundary() throws {
        let (messages, boundary) = try feed([[0, 0, 0, 0, 5, 1, 2]])
        #expect(messages.isEmpty)
        #expect(!boundary)
    }

    @Test func lengthPrefixBeyondTheLimitIsRejectedBeforeTheBody() {
        #expect(throws: FramingError.tooLarge(size: 0x7FFF_FFFF, limit: 100)) {
            try feed([[0, 0x7F, 0xFF, 0xFF, 0xFF]], limit: 100)
        }
    }

    @Test(arguments: [UInt8(2), 0x80, 0xFF])
    func garbageFlagByteIsRejected(flag: UInt8) {
        #expect(throws: FramingError.invalidFlag(flag)) { try feed([[flag, 0, 0, 0, 0]]) }
    }
}
