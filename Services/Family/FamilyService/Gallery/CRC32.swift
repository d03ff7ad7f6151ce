internal import CZlib

/// The CRC-32 PNG puts after every chunk (ISO 3309, the one zlib computes), updated as bytes stream by.
struct CRC32 {
    private var running: UInt = 0

    /// The CRC of everything added so far.
    var value: UInt32 { UInt32(running) }

    mutating func add(_ bytes: some Collection<UInt8>) {
        let running = running
        self.running =
            bytes.withContiguousStorageIfAvailable { buffer in
                crc32(running, buffer.baseAddress, UInt32(buffer.count))
            } ?? Array(bytes).withUnsafeBufferPointer { crc32(running, $0.baseAddress, UInt32($0.count)) }
    }
}
