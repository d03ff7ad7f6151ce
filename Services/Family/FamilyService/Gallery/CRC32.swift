/// The CRC-32 PNG puts after every chunk (ISO 3309, polynomial 0xEDB88320), computed as bytes stream by.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { value, _ in value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    }

    private var register: UInt32 = 0xFFFF_FFFF

    /// The CRC of everything added so far.
    var value: UInt32 { register ^ 0xFFFF_FFFF }

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            register = Self.table[Int((register ^ UInt32(byte)) & 0xFF)] ^ (register >> 8)
        }
    }
}
