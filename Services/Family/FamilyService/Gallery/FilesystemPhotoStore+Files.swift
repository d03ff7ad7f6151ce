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

    func seal() async throws(PhotoStoreError) {
        guard descriptor.withLock({ $0 }) != nil else { return }
        let fd = try openDescriptor(), path = store.temporaryPath(of: key)
        try await store.io { () throws(PhotoStoreError) in try PhotoFile.sync(fd, path: path) }
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
final class FilesystemPhotoReader: PhotoObjectReader {
    let byteCount: Int
    private let store: FilesystemPhotoStore
    private let path: String
    private let chunkSize: Int
    private let descriptor: Mutex<Int32?>

    init(store: FilesystemPhotoStore, path: String, fd: Int32, byteCount: Int, chunkSize: Int) {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        self.store = store
        self.path = path
        self.byteCount = byteCount
        self.chunkSize = chunkSize
        descriptor = Mutex(fd)
    }

    deinit {
        if let fd = descriptor.withLock({ $0 }) { close(fd) }
    }

    func next() async throws(PhotoStoreError) -> [UInt8]? {
        guard let fd = descriptor.withLock({ $0 }) else { return nil }
        let path = path, chunkSize = chunkSize
        let chunk = try await store.io { () throws(PhotoStoreError) in
            try PhotoFile.read(fd, count: chunkSize, path: path)
        }
        guard chunk.isEmpty else { return chunk }
        descriptor.withLock { $0 = nil }
        close(fd)
        return nil
    }
}
