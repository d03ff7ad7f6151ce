#if canImport(Glibc)
import Glibc
#endif
import KindredThreads

/// `PhotoObjectStore` on the local filesystem, the default: `<root>/<profile-id>/<photo-id>`, written
/// first as `<photo-id>.partial` (fsync the file; then rename and fsync the directory). Every call that
/// can block (open, write, fsync, rename) runs on `threads`, a small pool of dedicated threads, so a
/// slow disk never holds an event loop or Swift's cooperative pool; when too much I/O is queued the
/// store answers `busy` (UNAVAILABLE) at once instead of queueing without bound.
struct FilesystemPhotoStore: PhotoObjectStore {
    /// Where photos go unless configured otherwise (relative to the working directory, like `var/mail`).
    static let defaultRoot = "var/photos"
    /// The suffix of a temporary object's file.
    static let temporarySuffix = ".partial"
    /// The suffix of an object's new bytes while `replace` writes them (never published by the sweep, unlike
    /// an upload's: a crash can leave them half written).
    static let replacementSuffix = ".replacing"

    let root: String
    let threads: BlockingThreadPool

    /// A store under `root`; four I/O threads keep a disk busy without letting uploads crowd each other out.
    init(
        root: String = defaultRoot,
        threads: BlockingThreadPool = BlockingThreadPool(name: "photo-files", limit: 4, maxQueued: 1_024)
    ) {
        self.root = root
        self.threads = threads
    }

    func directory(of key: PhotoObjectKey) -> String { "\(root)/\(key.profileName)" }
    func path(of key: PhotoObjectKey) -> String { "\(directory(of: key))/\(key.photoName)" }
    func temporaryPath(of key: PhotoObjectKey) -> String { path(of: key) + Self.temporarySuffix }
    func replacementPath(of key: PhotoObjectKey) -> String { path(of: key) + Self.replacementSuffix }

    /// Runs blocking file work on the store's threads.
    func io<Value: Sendable>(_ work: @escaping @Sendable () throws(PhotoStoreError) -> Value)
        async throws(PhotoStoreError) -> Value
    {
        let result: Result<Value, PhotoStoreError>
        do {
            result = try await threads.run { Result { () throws(PhotoStoreError) in try work() } }
        } catch {
            throw busy
        }
        return try result.get()
    }

    /// What a trip the I/O threads could not take answers.
    var busy: PhotoStoreError { PhotoStoreError(operation: "busy", path: root, code: EAGAIN) }

    /// The file is created in the upload's first trip to the I/O threads (`createTemporary`).
    func beginUpload(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> any PhotoObjectUpload {
        FilesystemPhotoUpload(store: self, key: key)
    }

    /// Creates the temporary file of `key`, and its profile's directory if it is the first; blocking, so only on
    /// the I/O threads.
    func createTemporary(of key: PhotoObjectKey) throws(PhotoStoreError) -> Int32 {
        let directory = directory(of: key)
        // A new profile directory must itself survive a crash, or its photos vanish with it.
        if try PhotoFile.makeDirectories(directory) { try PhotoFile.syncDirectory(root) }
        return try PhotoFile.create(temporaryPath(of: key))
    }

    func open(_ key: PhotoObjectKey, chunkSize: Int) async throws(PhotoStoreError) -> (any PhotoObjectReader)?
    {
        let path = path(of: key), store = self
        return try await io { () throws(PhotoStoreError) in
            try FilesystemPhotoReader.open(path, chunkSize: chunkSize, in: store)
        }
    }

    func delete(_ key: PhotoObjectKey) async throws(PhotoStoreError) {
        let directory = directory(of: key), path = path(of: key), temporary = temporaryPath(of: key)
        let replacement = replacementPath(of: key)
        try await io { () throws(PhotoStoreError) in
            let removedObject = try PhotoFile.remove(path)
            let removedTemporary = try PhotoFile.remove(temporary)
            let removedReplacement = try PhotoFile.remove(replacement)
            if removedObject || removedTemporary || removedReplacement {
                try PhotoFile.syncDirectory(directory)
            }
        }
    }

    /// Writes the new bytes beside the object and renames them over it (fsync the file, then the directory).
    func replace(_ key: PhotoObjectKey, with bytes: [UInt8]) async throws(PhotoStoreError) -> Bool {
        let directory = directory(of: key), path = path(of: key), replacement = replacementPath(of: key)
        return try await io { () throws(PhotoStoreError) -> Bool in
            guard PhotoFile.exists(path) else { return false }
            let fd = try PhotoFile.create(replacement, replacingAny: true)
            defer { close(fd) }
            try PhotoFile.write(fd, bytes, path: replacement)
            try PhotoFile.sync(fd, path: replacement)
            try PhotoFile.rename(replacement, to: path)
            try PhotoFile.syncDirectory(directory)
            return true
        }
    }

    /// Rename, then fsync the directory (also when another published it: its fsync may still be under way).
    func publish(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> Bool {
        let directory = directory(of: key), path = path(of: key), temporary = temporaryPath(of: key)
        return try await io { () throws(PhotoStoreError) -> Bool in
            do throws(PhotoStoreError) {
                try PhotoFile.rename(temporary, to: path)
            } catch  where error.code == ENOENT {
                guard PhotoFile.exists(path) else { return false }
            }
            try PhotoFile.syncDirectory(directory)
            return true
        }
    }
}
