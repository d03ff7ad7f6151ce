import FuzzFixtures
import KindredMessages

/// Every request type's decoding through the generated bridge (wire validation, protobuf-c, conversion to
/// Swift values): the first input byte (two once there are more than 256 types) picks the type, the rest
/// is the message. What decodes must encode, and decode again to the same bytes.
func fuzzMessages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let selectorSize = requestTypes.count > 256 ? 2 : 1
    guard let data, size >= selectorSize else { return 0 }
    let selector = selectorSize == 1 ? Int(data[0]) : Int(data[0]) << 8 | Int(data[1])
    let type = requestTypes[selector % requestTypes.count]
    roundTrip(type, UnsafeRawBufferPointer(start: data + selectorSize, count: size - selectorSize))
    return 0
}

private func roundTrip<Message: ProtoMessage>(_ type: Message.Type, _ bytes: UnsafeRawBufferPointer) {
    guard let message = try? Message(serializedBytes: bytes, maxSize: Message.defaultMaxSize) else { return }
    // Bytes, not messages, are compared: the input may hold a NaN double, which equals nothing.
    let encoded: [UInt8]
    let again: [UInt8]
    do {
        encoded = try message.serializedBytes()
        again = try Message(serializedBytes: encoded).serializedBytes()
    } catch {
        fatalError("a decoded \(Message.protoMessageName) failed to round-trip: \(error)")
    }
    precondition(again == encoded, "\(Message.protoMessageName) re-encodes differently after a round trip")
}
