#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An upload's temporary file. It is created in the upload's first trip to the I/O threads (a write or the seal),
/// not when the upload begins: a photo within one sealed segment is created, written and made durable in one
/// trip, where it took two, and an upload refused before its first byte never touches the disk.
final class FilesystemPhotoUpload: PhotoObjectUpload {
    let key: PhotoObjectKey
    private let store: FilesystemPhotoStore
    private let file = Mutex(File.notCreated)

    /// The temporary file. Its descriptor has one owner at a time: the upload between trips, the trip while one
    /// runs (`inTrip`), so an abort during a trip never closes a descriptor the trip still uses.
    private enum File {
        case notCreated
        case open(Int32)
        case inTrip
        case sealed
        /// A trip failed or the upload was aborted: the file may exist, and nothing more goes into it.
        case ended
    }

    init(store: FilesystemPhotoStore, key: PhotoObjectKey) {
        self.store = store
        self.key = key
    }

    // An upload dropped without abort keeps its temporary file for the sweep, but not the descriptor.
    deinit {
        if case .open(let fd) = file.withLock({ $0 }) { close(fd) }
    }

    func write(_ bytes: [UInt8]) async throws(PhotoStoreError) {
        try await trip { fd, path throws(PhotoStoreError) in try PhotoFile.write(fd, bytes, path: path) }
    }

    /// The last bytes and the fsync in one trip to the I/O threads.
    func seal(after last: [UInt8]) async throws(PhotoStoreError) {
        // Sealed already: nothing to do, but bytes to append are refused (`trip`).
        if last.isEmpty, case .sealed = file.withLock({ $0 }) { return }
        try await trip(sealing: true) { fd, path throws(PhotoStoreError) in
            if !last.isEmpty { try PhotoFile.write(fd, last, path: path) }
            try PhotoFile.sync(fd, path: path)
        }
    }

    func commit() async throws(PhotoStoreError) {
        try await seal()
        // Neither object: the photo was deleted since its row committed, with its bytes.
        guard try await store.publish(key) else {
            throw PhotoStoreError(operation: "rename", path: store.temporaryPath(of: key), code: ENOENT)
        }
    }

    func abort() async {
        let was = file.withLock { file in
            defer { file = .ended }
            return file
        }
        switch was {
        case .notCreated: return
        case .open(let fd): close(fd)
        case .inTrip, .sealed, .ended: break  // a trip in flight closes its descriptor when it sees the abort
        }
        let path = store.temporaryPath(of: key)
        // What cannot be removed now (a busy pool, a failing disk) is the sweep's after the grace period.
        _ = try? await store.io { () throws(PhotoStoreError) in try PhotoFile.remove(path) }
    }

    /// Runs `work` on the file in one trip to the I/O threads, creating the file first in the upload's first
    /// trip. After it the file is open for more, or `sealed` (closed); a failure ends the upload.
    private func trip(
        sealing: Bool = false, _ work: @escaping @Sendable (Int32, String) throws(PhotoStoreError) -> Void
    ) async throws(PhotoStoreError) {
        let path = store.temporaryPath(of: key)
        let held: Int32? = try file.withLock { file throws(PhotoStoreError) in
            let held: Int32?
            switch file {
            case .notCreated: held = nil
            case .open(let fd): held = fd
            case .inTrip, .sealed, .ended:
                throw PhotoStoreError(operation: "write after seal", path: path, code: EBADF)
            }
            file = .inTrip
            return held
        }
        let (store, key) = (store, key)
        let (fd, failure): (Int32?, PhotoStoreError?)
        do {
            // The descriptor comes back even when the work failed, to be closed here.
            (fd, failure) = try await store.threads.run { () -> (Int32?, PhotoStoreError?) in
                var fd = held
                do throws(PhotoStoreError) {
                    let open: Int32
                    if let held { open = held } else { open = try store.createTemporary(of: key) }
                    fd = open
                    try work(open, path)
                    return (fd, nil)
                } catch {
                    return (fd, error)
                }
            }
        } catch {
            (fd, failure) = (held, store.busy)
        }
        let closing: Int32? = file.withLock { file in
            guard case .inTrip = file else { return fd }  // aborted during the trip
            switch (failure, fd) {
            case (nil, let fd?) where !sealing:
                file = .open(fd)
                return nil
            case (nil, _): file = .sealed
            case (_?, _): file = .ended
            }
            return fd
        }
        if let closing { close(closing) }
        if let failure { throw failure }
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
