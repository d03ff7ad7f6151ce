/// The input a photo parser has received but not yet used: chunks are appended as they arrive and read
/// from the front; what was read is dropped once it is half the buffer, so a parser holds at most the
/// chunk in hand and the part of a segment it still waits to complete.
struct PhotoByteQueue {
    private var bytes: [UInt8] = []
    private var start = 0

    /// Bytes received and not yet taken.
    var count: Int { bytes.count - start }

    mutating func append(_ chunk: [UInt8]) {
        if start > 0 && start * 2 >= bytes.count {
            bytes.removeFirst(start)
            start = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// The next `length` bytes, taken; nil (and nothing taken) until that many have arrived.
    mutating func take(_ length: Int) -> ArraySlice<UInt8>? {
        guard count >= length else { return nil }
        defer { start += length }
        return bytes[start..<start + length]
    }

    /// Up to `length` bytes, whatever has arrived.
    mutating func take(upTo length: Int) -> ArraySlice<UInt8> {
        take(min(length, count))!
    }

    /// Drops everything received (bytes after a photo's end).
    mutating func discardAll() {
        bytes = []
        start = 0
    }

    /// Calls `body` with the unread bytes; it answers how many of them to take.
    mutating func withUnread(_ body: (ArraySlice<UInt8>) throws(PhotoRejection) -> Int) throws(PhotoRejection)
    {
        start += try body(bytes[start...])
    }
}
