@testable import FamilyService

/// A photo store in front of another whose uploads hand each seal to `intercept` first: the gallery's tests
/// hold a seal while they look at the database, or make it fail as a disk would.
struct SealInterceptingPhotoStore: PhotoObjectStore {
    let plain: any PhotoObjectStore
    /// Runs before every seal; a seal that throws here never reaches the plain store.
    let intercept: @Sendable (PhotoObjectKey) async throws(PhotoStoreError) -> Void

    /// What `BabyContentFamily.with(photos:)` takes: the stack's store behind one intercepting its seals.
    static func making(
        _ intercept: @escaping @Sendable (PhotoObjectKey) async throws(PhotoStoreError) -> Void
    ) -> (FilesystemPhotoStore) -> any PhotoObjectStore {
        { SealInterceptingPhotoStore(plain: $0, intercept: intercept) }
    }

    func beginUpload(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> any PhotoObjectUpload {
        Upload(plain: try await plain.beginUpload(key), intercept: intercept)
    }

    func open(_ key: PhotoObjectKey, chunkSize: Int) async throws(PhotoStoreError) -> (any PhotoObjectReader)?
    {
        try await plain.open(key, chunkSize: chunkSize)
    }

    func publish(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> Bool { try await plain.publish(key) }

    func delete(_ key: PhotoObjectKey) async throws(PhotoStoreError) { try await plain.delete(key) }

    func replace(_ key: PhotoObjectKey, with bytes: [UInt8]) async throws(PhotoStoreError) -> Bool {
        try await plain.replace(key, with: bytes)
    }

    func sweepOrphans(
        olderThan grace: Duration, known: @Sendable ([PhotoObjectKey]) async throws -> Set<PhotoObjectKey>
    ) async throws -> PhotoSweep {
        try await plain.sweepOrphans(olderThan: grace, known: known)
    }

    private struct Upload: PhotoObjectUpload {
        let plain: any PhotoObjectUpload
        let intercept: @Sendable (PhotoObjectKey) async throws(PhotoStoreError) -> Void
        var key: PhotoObjectKey { plain.key }

        func write(_ bytes: [UInt8]) async throws(PhotoStoreError) { try await plain.write(bytes) }

        func seal(after last: [UInt8]) async throws(PhotoStoreError) {
            try await intercept(key)
            try await plain.seal(after: last)
        }

        func commit() async throws(PhotoStoreError) { try await plain.commit() }
        func abort() async { await plain.abort() }
    }
}
