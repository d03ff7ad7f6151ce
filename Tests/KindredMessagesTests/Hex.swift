import KindredMessages

/// Bytes from a hex string such as "0a0178", for wire fixtures.
func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

/// Encodes a message and decodes the bytes again.
func roundTrip<M: ProtoMessage>(_ message: M) throws -> M {
    try M(serializedBytes: try message.serializedBytes())
}
