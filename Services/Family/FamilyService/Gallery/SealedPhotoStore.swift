import KindredAuth

/// A `PhotoObjectStore` whose objects are sealed under family's data keys (`FieldCipher`, AES-256-GCM) in
/// segments bound to the object's key (`PhotoSegments`): the files on disk, or the objects in a bucket, are
/// unreadable without the keys, and bytes copied under another key do not open. Uploads and downloads still
/// stream: each holds a segment or two, not the photo.
///
/// Objects stored before sealing began are read as they are until `keys rotate-data` seals them
/// (`PhotoObjectRotation`). The stored bytes tell which is which: a sealed object starts with `FieldCipher`'s
/// format byte (1), a stored photo with the JPEG (FF D8) or PNG (89 50) signature the sanitizer requires. So no
/// column has to change in step with the object store, which no transaction spans.
struct SealedPhotoStore: PhotoObjectStore {
    let plain: any PhotoObjectStore
    let cipher: FieldCipher

    init(sealing plain: any PhotoObjectStore, with cipher: FieldCipher) {
        self.plain = plain
        self.cipher = cipher
    }

    func beginUpload(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> any PhotoObjectUpload {
        SealedPhotoUpload(sealingInto: try await plain.beginUpload(key), with: cipher)
    }

    func open(_ key: PhotoObjectKey, chunkSize: Int) async throws(PhotoStoreError) -> (any PhotoObjectReader)?
    {
        guard let stored = try await plain.open(key, chunkSize: PhotoSegments.byteCount) else { return nil }
        let first = try await stored.next() ?? []
        return SealedPhotoReader(stored, first: first, key: key, cipher: cipher, chunkSize: chunkSize)
    }

    func publish(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> Bool {
        try await plain.publish(key)
    }

    func delete(_ key: PhotoObjectKey) async throws(PhotoStoreError) {
        try await plain.delete(key)
    }

    /// Replaces the object with `photo`, sealed under the current key.
    func replace(_ key: PhotoObjectKey, with photo: [UInt8]) async throws(PhotoStoreError) -> Bool {
        try await plain.replace(key, with: PhotoSegments.sealed(photo, for: key, with: cipher))
    }

    func sweepOrphans(
        olderThan grace: Duration, known: @Sendable ([PhotoObjectKey]) async throws -> Set<PhotoObjectKey>
    ) async throws -> PhotoSweep {
        try await plain.sweepOrphans(olderThan: grace, known: known)
    }

    /// The whole photo `key` names, opened; nil when there is none.
    func photo(of key: PhotoObjectKey) async throws(PhotoStoreError) -> [UInt8]? {
        guard let reader = try await open(key, chunkSize: PhotoSegments.byteCount) else { return nil }
        var photo: [UInt8] = []
        photo.reserveCapacity(reader.byteCount)
        while let chunk = try await reader.next() { photo += chunk }
        return photo
    }

    /// The key the object of `key` is sealed under, from its first bytes; nil when it is plain, and nil inside
    /// nil when there is no object.
    func keyID(of key: PhotoObjectKey) async throws(PhotoStoreError) -> String?? {
        guard let stored = try await plain.open(key, chunkSize: 2 + 255) else { return nil }
        let head = try await stored.next() ?? []
        return .some(FieldCipher.keyID(of: head))
    }
}
