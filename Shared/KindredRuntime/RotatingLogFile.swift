#if canImport(Glibc)
import Glibc
#endif

/// A log file bounded by size: when the next lines would take it past `maxBytes`, it becomes `path.1` (the
/// older ones move up to `path.keep`, the oldest is deleted) and a new file starts, so the process's logs
/// never take more than `(keep + 1) × maxBytes` of disk however fast lines come. Rotation happens between
/// lines, so every file holds whole lines; a line longer than `maxBytes` gets a file of its own.
///
/// The process rotates its own file rather than leave it to logrotate (whose `copytruncate` loses the lines
/// written during the copy, and which runs only as often as cron) or a pipe through a rotating process (one
/// more process per service, and a package to install): the log's writer thread already owns the file and
/// writes in batches, so a rotation is two renames and an `open` between batches.
public final class RotatingLogFile: @unchecked Sendable {
    // Unchecked Sendable: after `init`, only the log writer's thread calls `write`.
    let path: String
    let maxBytes: Int
    let keep: Int
    private var fd: Int32
    private(set) var size: Int

    /// The file could not be opened or created.
    public struct OpenError: Error, CustomStringConvertible {
        public let description: String
    }

    init(path: String, maxBytes: Int, keep: Int) throws(OpenError) {
        self.path = path
        self.maxBytes = max(1, maxBytes)
        self.keep = max(0, keep)
        fd = -1
        size = 0
        try open()
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Appends whole lines, rotating first whenever the next line would not fit.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                let rest = buffer.count - start
                let room = maxBytes - size
                var end = buffer.count
                if rest > room {
                    // The last line that ends within the room; none: a fresh file, or a line longer than a file.
                    let newline = Self.lastNewline(
                        in: UnsafeRawBufferPointer(rebasing: buffer[start..<start + max(0, room)]))
                    if let newline {
                        end = start + newline + 1
                    } else if size > 0 {
                        rotate()
                        continue
                    } else {
                        let next = memchr(buffer.baseAddress! + start, 0x0A, rest)
                        end =
                            next.map { buffer.baseAddress!.distance(to: UnsafeRawPointer($0)) + 1 }
                            ?? buffer.count
                    }
                }
                LogLineWriter.writeAll(UnsafeRawBufferPointer(rebasing: buffer[start..<end]), to: fd)
                size += end - start
                start = end
            }
        }
    }

    /// The offset of the last newline in `bytes` (glibc's `memrchr` is not in Swift's Glibc module).
    private static func lastNewline(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = bytes.count - 1
        while index >= 0 && bytes[index] != 0x0A { index -= 1 }
        return index >= 0 ? index : nil
    }

    private func rotate() {
        Glibc.close(fd)
        fd = -1
        size = 0
        if keep == 0 {
            unlink(path)
        } else {
            for index in stride(from: keep - 1, through: 1, by: -1) {
                rename("\(path).\(index)", "\(path).\(index + 1)")
            }
            rename(path, "\(path).1")
        }
        // A file that cannot be opened again leaves the lines nowhere to go: drop them rather than stop logging
        // threads (the writer holds no lock here) or the process.
        try? open()
    }

    private func open() throws(OpenError) {
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
        guard fd >= 0 else {
            throw OpenError(
                description: "cannot open the log file \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
    }
}
