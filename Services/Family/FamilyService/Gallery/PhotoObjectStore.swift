import KindredRPC

/// Where gallery photos' bytes live, by `PhotoObjectKey`. An upload is written under a temporary name
/// that no reader sees and is published only once the database row naming the photo has committed:
///
///     let upload = try await store.beginUpload(key)
///     for try await chunk in sanitized { try await upload.write(chunk) }
///     try await upload.seal()        // durable under the temporary name
///     try await insertPhotoRow(…)    // the row commits: now the photo exists
///     try await upload.commit()      // published; if this fails, the sweep finishes it
///
/// A crash before the row commits leaves a temporary object and no row: invisible, and removed by
/// `sweepOrphans` once older than the grace period. A crash between the row and `commit` leaves a row
/// and a sealed temporary object: the sweep sees the row and commits it. A download between the two
/// finds the row and not yet the bytes: it publishes them itself (`publish`). Deleting removes the row
/// first and the bytes after; a crash between leaves bytes no row names, which the sweep removes.
///
/// An S3-compatible store plugs in the same way: `beginUpload` starts a multipart upload (the temporary
/// object: invisible until completed), `write` uploads parts (5 MiB or more each, so it buffers one part),
/// `seal(after:)` uploads the part it holds with the last bytes, `commit` (and `publish`) completes the multipart upload,
/// `abort` aborts it; the sweep lists incomplete multipart uploads (older than the grace period: abort; row
/// known: complete) and the objects under each profile prefix (`<profile-id>/`), asking `known` about them page
/// by page; `replace` is a single PUT over the object. The gallery stores every object sealed
/// (`SealedPhotoStore`) in any of them.
protocol PhotoObjectStore: Sendable {
    /// Starts writing the bytes of `key` under a temporary name.
    func beginUpload(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> any PhotoObjectUpload

    /// A committed object's bytes in chunks of at most `chunkSize`; nil when there is no such object.
    func open(_ key: PhotoObjectKey, chunkSize: Int) async throws(PhotoStoreError) -> (any PhotoObjectReader)?

    /// Publishes the sealed temporary object of a key whose row has committed, as its upload's `commit` does:
    /// done already counts as done. An upload commits its row before it publishes, so a reader that finds the
    /// row and no bytes publishes them itself (and a sweep, after a crash). False when there is neither object.
    func publish(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> Bool

    /// Removes a committed object and any temporary one of the same key; a missing object is no error.
    func delete(_ key: PhotoObjectKey) async throws(PhotoStoreError)

    /// Replaces a committed object's bytes in one step (`keys rotate-data` re-sealing it): a reader sees the
    /// old bytes or the new, never a mix. False, and nothing written, when there is no such object.
    func replace(_ key: PhotoObjectKey, with bytes: [UInt8]) async throws(PhotoStoreError) -> Bool

    /// Finishes or removes what interrupted uploads and deletions left behind. `known` answers which of
    /// the keys it is given some database row names (it is asked in batches of at most
    /// `PhotoSweep.batchSize`); a temporary object is removed only once older than `grace`, which
    /// must exceed the longest upload (the upload RPC's deadline).
    func sweepOrphans(
        olderThan grace: Duration, known: @Sendable ([PhotoObjectKey]) async throws -> Set<PhotoObjectKey>
    ) async throws -> PhotoSweep
}

/// One upload in progress: bytes go to the temporary object until it is committed or aborted.
protocol PhotoObjectUpload: Sendable {
    var key: PhotoObjectKey { get }
    /// Appends bytes to the temporary object.
    func write(_ bytes: [UInt8]) async throws(PhotoStoreError)
    /// Appends `last`, the upload's final bytes, and makes every byte written durable, in one step where the
    /// store can (the filesystem's: one trip to its I/O threads); call before the row that names the photo
    /// commits. Sealing again without bytes does nothing; bytes after the seal are refused.
    func seal(after last: [UInt8]) async throws(PhotoStoreError)
    /// Publishes the sealed bytes under the key; call after the row committed. Safe to repeat.
    func commit() async throws(PhotoStoreError)
    /// Removes the temporary object: the upload was refused or its row did not commit.
    func abort() async
}

extension PhotoObjectUpload {
    /// Makes every byte written durable.
    func seal() async throws(PhotoStoreError) { try await seal(after: []) }
}

/// A committed object being read.
protocol PhotoObjectReader: Sendable {
    /// The object's size in bytes.
    var byteCount: Int { get }
    /// The next chunk; nil after the last.
    func next() async throws(PhotoStoreError) -> [UInt8]?
}

/// What a sweep did.
struct PhotoSweep: Equatable, Sendable {
    /// How many keys `known` is asked about at once.
    static let batchSize = 500

    /// Committed objects no row named, removed.
    var removedObjects = 0
    /// Temporary objects past the grace period whose row never committed, removed.
    var removedTemporaries = 0
    /// Temporary objects whose row had committed, published.
    var committedTemporaries = 0
}

/// Why the store could not do what it was asked; the caller sees a generic answer, the log this.
struct PhotoStoreError: Error, CustomStringConvertible, RPCErrorConvertible {
    /// The system call that failed (`open`, `fsync`, `rename`, …), or "busy" when the I/O threads were.
    let operation: String
    let path: String
    let code: Int32

    var description: String { "photo store: \(operation) \(path) failed (errno \(code))" }

    /// Too much I/O queued is a moment's overload (UNAVAILABLE, retry); anything else is INTERNAL.
    var rpcError: RPCError {
        operation == "busy" ? .unavailable(self) : .internalError(self)
    }
}
