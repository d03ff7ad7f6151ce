#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An upload's temporary file, open for writing until it is sealed or aborted.
final class FilesystemPhotoUpload: PhotoObjectUpload {
    let key: PhotoObjectKey
    private let store: FilesystemPhotoStore
    /// The open file; nil once sealed or aborted.
    private let descriptor: Mutex<Int32?>

    init(store: FilesystemPhotoStore, key: PhotoObjectKey, fd: Int32) {
        self.store = store
        self.key = key
        descriptor = Mutex(fd)
    }

    // An upload dropped without abort keeps its temporary file for the sweep, but not the descriptor.
    deinit {
        if let fd = descriptor.withLock({ $0 }) { close(fd) }
    }

    func write(_ bytes: [UInt8]) async throws(PhotoStoreError) {
        let fd = try openDescriptor(), path = store.temporaryPath(of: key)
        try await store.io { () throws(PhotoStoreError) in try PhotoFile.write(fd, bytes, path: path) }
    }

    /// The last bytes and the fsync in one trip to the I/O threads.
    func seal(after last: [UInt8]) async throws(PhotoStoreError) {
        // Sealed already: nothing to do, but bytes to append are refused (`openDescriptor`).
        if last.isEmpty, descriptor.withLock({ $0 }) == nil { return }
        let fd = try openDescriptor(), path = store.temporaryPath(of: key)
        try await store.io { () throws(PhotoStoreError) in
            if !last.isEmpty { try PhotoFile.write(fd, last, path: path) }
            try PhotoFile.sync(fd, path: path)
        }
        descriptor.withLock { $0 = nil }
        close(fd)
    }

    func commit() async throws(PhotoStoreError) {
        try await seal()
        try await store.publish(key)
    }

    func abort() async {
        let fd = descriptor.withLock { fd in
            defer { fd = nil }
            return fd
        }
        if let fd { close(fd) }
        let path = store.temporaryPath(of: key)
        // What cannot be removed now (a busy pool, a failing disk) is the sweep's after the grace period.
        _ = try? await store.io { () throws(PhotoStoreError) in try PhotoFile.remove(path) }
    }

    private func openDescriptor() throws(PhotoStoreError) -> Int32 {
        guard let fd = descriptor.withLock({ $0 }) else {
            throw PhotoStoreError(
                operation: "write after seal", path: store.temporaryPath(of: key), code: EBADF)
        }
        return fd
    }
}

/// A committed object's file, read chunk by chunk; closed after the last chunk or when dropped.
///
/// The first chunk is read in the same trip to the I/O threads as the open, and reading stops at the size the
/// open found, with no read to find the end: a photo within one chunk (most of them) is one trip, where it was
/// three, each a wake-up of an I/O thread and then of the event loop.
final class FilesystemPhotoReader: PhotoObjectReader {
    let byteCount: Int
    private let store: FilesystemPhotoStore
    private let path: String
    private let chunkSize: Int
    private let state: Mutex<State>

    private struct State {
        /// The open file; nil once every byte is read (or the file ended early).
        var descriptor: Int32?
        /// The chunk read with the open, until it is handed out.
        var ahead: [UInt8]?
        /// Bytes of `byteCount` not yet read from the file.
        var unread: Int

        /// The descriptor to close, once nothing is left to read.
        mutating func closingIfDone() -> Int32? {
            guard unread == 0, let fd = descriptor else { return nil }
            descriptor = nil
            return fd
        }
    }

    /// Opens `path` and reads its first chunk of at most `chunkSize` bytes; nil when there is no such file.
    /// Blocking: run it on the store's I/O threads.
    static func open(_ path: String, chunkSize: Int, in store: FilesystemPhotoStore) throws(PhotoStoreError)
        -> FilesystemPhotoReader?
    {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        guard let (fd, size) = try PhotoFile.openForReading(path) else { return nil }
        let first: [UInt8]
        do {
            first = size == 0 ? [] : try PhotoFile.read(fd, count: min(chunkSize, size), path: path)
        } catch {
            close(fd)
            throw error
        }
        return FilesystemPhotoReader(
            store: store, path: path, fd: fd, byteCount: size, first: first, chunkSize: chunkSize)
    }

    private init(
        store: FilesystemPhotoStore, path: String, fd: Int32, byteCount: Int, first: [UInt8], chunkSize: Int
    ) {
        self.store = store
        self.path = path
        self.byteCount = byteCount
        self.chunkSize = chunkSize
        // A file shorter than its size said has nothing more to read.
        var state = State(
            descriptor: fd, ahead: first.isEmpty ? nil : first,
            unread: first.isEmpty ? 0 : byteCount - first.count)
        if let done = state.closingIfDone() { close(done) }
        self.state = Mutex(state)
    }

    deinit {
        if let fd = state.withLock({ $0.descriptor }) { close(fd) }
    }

    func next() async throws(PhotoStoreError) -> [UInt8]? {
        let (ahead, fd, unread) = state.withLock { state in
            defer { state.ahead = nil }
            return (state.ahead, state.descriptor, state.unread)
        }
        if let ahead { return ahead }
        guard let fd else { return nil }
        let path = path, count = min(chunkSize, unread)
        let chunk = try await store.io { () throws(PhotoStoreError) in
            try PhotoFile.read(fd, count: count, path: path)
        }
        let done = state.withLock { state in
            state.unread = chunk.isEmpty ? 0 : state.unread - chunk.count
            return state.closingIfDone()
        }
        if let done { close(done) }
        return chunk.isEmpty ? nil : chunk
    }
}
