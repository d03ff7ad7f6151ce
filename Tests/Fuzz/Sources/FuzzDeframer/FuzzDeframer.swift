@testable import KindredRPC

/// The gRPC length-prefix deframer, fed the input split into DATA-sized chunks where its first byte says.
///
/// Checked: every message it emits has exactly the length its prefix announced and never more than the
/// limit; the flag is 0 or 1; and the same bytes fed whole yield the same messages and the same error.
func fuzzDeframer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let chunkSize = Int(data[0]) + 1
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let limit = 1 << 12
    let whole = deframe(input, chunkSize: max(input.count, 1), limit: limit)
    let chunked = deframe(input, chunkSize: chunkSize, limit: limit)
    precondition(whole.messages == chunked.messages, "chunking changed the messages")
    precondition(whole.error == chunked.error, "chunking changed the error")
    precondition(whole.boundary == chunked.boundary, "chunking changed where the stream may end")
    for message in whole.messages {
        precondition(message.bytes.count <= limit)
        // A compressed message goes on to be inflated, which must stop at the limit too.
        if message.compressed, let inflated = try? MessageEncoding.gunzip(message.bytes, limit: limit) {
            precondition(inflated.count <= limit, "inflated past the limit")
        }
    }
    return 0
}

private func deframe(_ input: UnsafeRawBufferPointer, chunkSize: Int, limit: Int)
    -> (messages: [FramedMessage], error: FramingError?, boundary: Bool)
{
    var deframer = MessageDeframer(maxMessageSize: limit)
    var messages: [FramedMessage] = []
    var offset = 0
    do {
        while offset < input.count {
            let end = min(offset + chunkSize, input.count)
            try deframer.consume(UnsafeRawBufferPointer(rebasing: input[offset..<end])) {
                messages.append($0)
            }
            offset = end
        }
    } catch {
        return (messages, error, false)
    }
    if deframer.isAtMessageBoundary {
        // A stream that ends here is whole: framing every message again gives back the input exactly.
        var reframed: [UInt8] = []
        for message in messages {
            MessageDeframer.frame(message.bytes, compressed: message.compressed, into: &reframed)
        }
        precondition(reframed.elementsEqual(input), "the messages do not frame back to their input")
    }
    return (messages, nil, deframer.isAtMessageBoundary)
}
