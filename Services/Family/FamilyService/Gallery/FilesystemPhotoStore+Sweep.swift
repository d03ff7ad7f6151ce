/// The orphan sweep: run at start and then hourly (`PhotoOrphanSweep`, the family service's background
/// work). It walks one profile directory at a time, so its memory is bounded by
/// the largest gallery (1,000 photos), not by the store.
extension FilesystemPhotoStore {
    func sweepOrphans(
        olderThan grace: Duration, known: @Sendable ([PhotoObjectKey]) async throws -> Set<PhotoObjectKey>
    ) async throws -> PhotoSweep {
        var sweep = PhotoSweep()
        let root = root
        for profile in try await io({ () throws(PhotoStoreError) in try PhotoFile.entries(root) }) {
            let listing = try await list(profile: profile, grace: grace)
            let objects = try await knownKeys(listing.objects, known)
            for key in listing.objects where !objects.contains(key) {
                try await delete(key)
                sweep.removedObjects += 1
            }
            let temporaries = try await knownKeys(listing.temporaries.map(\.key), known)
            for (key, isPastGrace) in listing.temporaries {
                if temporaries.contains(key) {
                    // Its row committed, so the upload had sealed it: finish what a crash interrupted.
                    if try await publish(key) { sweep.committedTemporaries += 1 }
                } else if isPastGrace {
                    try await delete(key)
                    sweep.removedTemporaries += 1
                }
            }
        }
        return sweep
    }

    /// A profile directory's committed and temporary objects; names that are not keys are left alone.
    private func list(profile: String, grace: Duration) async throws(PhotoStoreError) -> (
        objects: [PhotoObjectKey], temporaries: [(key: PhotoObjectKey, isPastGrace: Bool)]
    ) {
        let directory = "\(root)/\(profile)"
        return try await io { () throws(PhotoStoreError) in
            var objects: [PhotoObjectKey] = []
            var temporaries: [(key: PhotoObjectKey, isPastGrace: Bool)] = []
            for name in try PhotoFile.entries(directory) {
                if name.hasSuffix(Self.temporarySuffix) {
                    let photo = String(name.dropLast(Self.temporarySuffix.count))
                    guard let key = PhotoObjectKey(profileName: profile, photoName: photo) else { continue }
                    let age = PhotoFile.age("\(directory)/\(name)") ?? .zero
                    temporaries.append((key, age >= grace))
                } else if let key = PhotoObjectKey(profileName: profile, photoName: name) {
                    objects.append(key)
                }
            }
            return (objects, temporaries)
        }
    }

    /// Asks `known` about `keys` in batches of `PhotoSweep.batchSize`.
    private func knownKeys(
        _ keys: [PhotoObjectKey], _ known: @Sendable ([PhotoObjectKey]) async throws -> Set<PhotoObjectKey>
    ) async throws -> Set<PhotoObjectKey> {
        var found = Set<PhotoObjectKey>()
        for start in stride(from: 0, to: keys.count, by: PhotoSweep.batchSize) {
            found.formUnion(
                try await known(Array(keys[start..<min(start + PhotoSweep.batchSize, keys.count)])))
        }
        return found
    }
}
