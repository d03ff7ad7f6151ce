#if canImport(Glibc)
import Glibc
#endif

/// The blocking file calls of `FilesystemPhotoStore`, each failing with its call's errno. They block
/// (fsync waits for the disk), so they run only on the store's I/O threads.
enum PhotoFile {
    /// Creates `path` and any missing parent; true when the last one was created now.
    static func makeDirectories(_ path: String) throws(PhotoStoreError) -> Bool {
        if mkdir(path, 0o750) == 0 { return true }
        switch errno {
        case EEXIST: return false
        case ENOENT:
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            guard !parent.isEmpty else { throw failure("mkdir", path) }
            _ = try makeDirectories(parent)
            guard mkdir(path, 0o750) == 0 || errno == EEXIST else { throw failure("mkdir", path) }
            return true
        default: throw failure("mkdir", path)
        }
    }

    /// Creates a new file for writing; fails if it exists, unless `replacingAny` (then it is emptied).
    static func create(_ path: String, replacingAny: Bool = false) throws(PhotoStoreError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (replacingAny ? O_TRUNC : O_EXCL), 0o640)
        guard fd >= 0 else { throw failure("open", path) }
        return fd
    }

    /// Opens a file for reading with its size; nil when it does not exist.
    static func openForReading(_ path: String) throws(PhotoStoreError) -> (fd: Int32, size: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = failure("fstat", path)
            close(fd)
            throw error
        }
        return (fd, Int(info.st_size))
    }

    /// Writes every byte, across short writes and interruptions.
    static func write(_ fd: Int32, _ bytes: [UInt8], path: String) throws(PhotoStoreError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                guard errno == EINTR else { throw failure("write", path) }
                continue
            }
            offset += written
        }
    }

    /// Up to `count` bytes; empty at the end of the file.
    static func read(_ fd: Int32, count: Int, path: String) throws(PhotoStoreError) -> [UInt8] {
        // Read straight into the answer's storage: no zeroing of bytes the read overwrites, and no second copy.
        var failure: PhotoStoreError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while true {
                let got = Glibc.read(fd, buffer.baseAddress, count)
                if got >= 0 {
                    initialized = got
                    return
                }
                guard errno == EINTR else {
                    failure = Self.failure("read", path)
                    initialized = 0
                    return
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    static func sync(_ fd: Int32, path: String) throws(PhotoStoreError) {
        guard fsync(fd) == 0 else { throw failure("fsync", path) }
    }

    /// Makes the directory's entries (a new, renamed or removed name) durable.
    static func syncDirectory(_ path: String) throws(PhotoStoreError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        try sync(fd, path: path)
    }

    static func rename(_ from: String, to: String) throws(PhotoStoreError) {
        guard Glibc.rename(from, to) == 0 else { throw failure("rename", from) }
    }

    /// Removes a file; false when there was none.
    static func remove(_ path: String) throws(PhotoStoreError) -> Bool {
        if unlink(path) == 0 { return true }
        guard errno == ENOENT else { throw failure("unlink", path) }
        return false
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The names in a directory (not `.` and `..`); empty when it does not exist.
    static func entries(_ path: String) throws(PhotoStoreError) -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw failure("opendir", path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// How long ago the file was last modified; nil when it is gone.
    static func age(_ path: String) -> Duration? {
        var info = stat()
        var now = timespec()
        guard stat(path, &info) == 0, clock_gettime(CLOCK_REALTIME, &now) == 0 else { return nil }
        return .seconds(now.tv_sec - info.st_mtim.tv_sec) + .nanoseconds(now.tv_nsec - info.st_mtim.tv_nsec)
    }

    private static func failure(_ operation: String, _ path: String) -> PhotoStoreError {
        PhotoStoreError(operation: operation, path: path, code: errno)
    }
}
