internal import Glibc

/// This machine, as mail names it.
enum LocalHost {
    /// The host name (`gethostname`), or `localhost` when it cannot be read.
    static var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0, buffer[0] != 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
