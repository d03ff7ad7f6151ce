import KindredPostgres
import KindredRuntime

/// Gallery photos' bytes as `kindred-family keys rotate-data` re-seals them (`SealedColumn`): photo by photo
/// in key order, each under its row's lock (a delete waits, and so does a second rotation, which then finds
/// the object current). An object sealed under an older key, or stored before sealing began, is read whole,
/// sealed under the current key and renamed over the old bytes; readers see the old object or the new. Objects
/// no row names are the orphan sweep's, not this.
struct PhotoObjectRotation: SealedColumn {
    static let batch = 100

    let database: PostgresPool
    let photos: SealedPhotoStore

    var name: String { "photo objects" }

    func resealBatch(after cursor: PhotoObjectKey?) async throws -> (resealed: Int, next: PhotoObjectKey?) {
        let keys = try await BabyPhotoStore.keys(after: cursor, limit: Self.batch, on: database)
        var resealed = 0
        for key in keys {
            if try await reseal(key) { resealed += 1 }
        }
        return (resealed, keys.count < Self.batch ? nil : keys.last)
    }

    /// Re-seals the object of `key` unless it is sealed under the current key already, or gone.
    private func reseal(_ key: PhotoObjectKey) async throws -> Bool {
        try await database.transaction { tx in
            guard try await BabyPhotoStore.lock(key, in: tx),
                let keyID = try await photos.keyID(of: key), keyID != photos.cipher.keyring.current.id,
                let photo = try await photos.photo(of: key)
            else { return false }
            return try await photos.replace(key, with: photo)
        }
    }
}
