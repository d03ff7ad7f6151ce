import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// UploadPhoto: the metadata, the owner and the gallery's room are checked before any byte is read; the bytes
/// then stream through `PhotoIntake` into a temporary object (refused the moment they stop being a photo or
/// pass 10 MB) and are made durable, the row commits, and only then are the bytes published. Whatever fails
/// before the row commits removes the temporary object, so a refusal leaves no row and no file. No transaction
/// is open while the store works: a slow disk holds its own upload, never a database connection or the
/// profile's lock on uploads.
extension BabyGallery {
    /// Stores the photo `requests` carry, uploaded by `owner`; a retry under the same request_id (with the same
    /// caption) returns the first photo without reading its bytes again.
    func upload(_ requests: RequestStream<Kindred_Family_V1_UploadPhotoRequest>, by owner: UserID)
        async throws
        -> StoredBabyPhoto
    {
        var messages = requests.makeAsyncIterator()
        guard case .metadata(let metadata)? = try await messages.next()?.part else {
            throw FamilyError.uploadMetadataFirst
        }
        let (profile, caption, fileName) = try Self.checked(metadata)
        // One read; the retry and the count are looked at only once the caller is known to own the profile.
        let (role, earlier, photos) = try await BabyPhotoStore.admission(
            of: owner, requestID: metadata.requestID, to: profile, on: database)
        guard let role else { throw FamilyError.babyProfileNotFound }
        guard role == .owner else { throw FamilyError.babyProfileOwnersOnly }
        if let earlier {
            return try await retried(earlier, of: profile, caption: caption)
        }
        // Refused before the bytes are read; the insert counts again, under the profile's lock.
        guard photos < Self.maximumPhotos else {
            throw FamilyError.galleryFull
        }
        let started = ContinuousClock.now
        let now = clock.now
        let intake = try await PhotoIntake.begin(
            PhotoObjectKey(profile: profile, photo: .generate(at: now)), in: store)
        let stored: StoredPhoto
        do {
            while let message = try await messages.next() {
                guard case .chunk(let chunk)? = message.part else { throw FamilyError.uploadMetadataFirst }
                guard chunk.count <= Self.chunkSize else { throw FamilyError.uploadChunkTooLarge }
                try await intake.receive(chunk)
            }
            stored = try await intake.finish()
            // Past the deadline the orphan sweep may already have taken the temporary object.
            guard ContinuousClock.now - started < PhotoOrphanSweep.uploadDeadline else {
                throw FamilyError.uploadTooSlow
            }
        } catch {
            await intake.abort()
            throw error
        }
        let photo = StoredBabyPhoto(stored, by: owner, caption: caption, fileName: fileName, at: now)
        let (id, isRetry): (PhotoID, Bool)
        do {
            (id, isRetry) = try await insert(photo, requestID: metadata.requestID)
        } catch {
            await intake.abort()
            throw error
        }
        if isRetry {
            await intake.abort()
            return try await retried(id, of: profile, caption: caption)
        }
        try await intake.commit()
        // The row as inserted: reading it back would cost a statement, and could find it deleted already.
        return photo
    }

    /// Inserts the row and records the activity: two round trips. When a retry under the same request_id
    /// committed first (the insert fails on its unique key), its photo and true.
    private func insert(_ photo: StoredBabyPhoto, requestID: String) async throws -> (PhotoID, Bool) {
        try await IdempotentCreate.run(
            {
                try await database.transaction { tx in
                    guard
                        let (author, inserted) = try await BabyPhotoStore.lockUploadsAndInsert(
                            photo, requestID: requestID, limit: Self.maximumPhotos, seals: seals, in: tx)
                    else { throw FamilyError.babyProfileNotFound }
                    guard author.role == .owner else { throw FamilyError.babyProfileOwnersOnly }
                    guard inserted else { throw FamilyError.galleryFull }
                    try await BabyActivityLog.record(
                        BabyActivityEntry(
                            profile: photo.profile, kind: .photoAdded, actor: photo.uploadedBy,
                            subject: photo.id.uuid, detail: photo.caption), names: author.names,
                        at: photo.createdAt, seals: seals, in: tx)
                    return (photo.id, false)
                }
            },
            first: {
                try await BabyPhotoStore.uploaded(
                    by: photo.uploadedBy, requestID: requestID, on: photo.profile, on: database
                ).map { ($0, true) }
            })
    }

    private func retried(_ earlier: PhotoID, of profile: BabyProfileID, caption: String) async throws
        -> StoredBabyPhoto
    {
        let photo = try await read(earlier, of: profile)
        return try IdempotentCreate.retried(photo, same: photo.caption == caption)
    }

    /// The metadata's profile, caption and file name, or INVALID_ARGUMENT naming every bad field.
    private static func checked(_ metadata: Kindred_Family_V1_UploadPhotoMetadata) throws(RPCError) -> (
        BabyProfileID, String, String
    ) {
        var violations = FieldViolations()
        violations.add("metadata.request_id", IdempotentCreate.requestIDProblem(metadata.requestID))
        let profile: BabyProfileID? = violations.id("metadata.profile_id", metadata.profileID)
        let caption = caption(metadata.caption, &violations, field: "metadata.caption")
        let fileName = ContentText.trimmed(metadata.fileName)
        violations.add(
            "metadata.file_name", ContentText.problem(fileName, limit: fileNameLimit, required: false))
        return (try violations.throwIfAny(profile), caption, fileName)
    }
}
