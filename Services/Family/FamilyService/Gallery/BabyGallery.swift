import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// A baby profile's photos: owners upload (`BabyGallery+Upload.swift`), caption and delete them; every member
/// reads and downloads them. Rows are in `family.baby_photos`, bytes in `store`.
struct BabyGallery: Sendable {
    /// The most photos one profile holds.
    static let maximumPhotos = 1_000
    /// The largest chunk an upload may send, and the chunk a download sends.
    static let chunkSize = 1 << 20
    static let captionLimit = 500
    static let fileNameLimit = 255

    let database: PostgresPool
    let clock: WallClock
    let membership: BabyMembership
    let store: any PhotoObjectStore
    /// Opens the profile's sealed name for the notices the activity log posts.
    let seals: BabySeals

    init(database: PostgresPool, clock: WallClock, store: any PhotoObjectStore, seals: BabySeals) {
        self.database = database
        self.clock = clock
        self.store = store
        membership = BabyMembership(database: database)
        self.seals = seals
    }

    /// One photo, as `reader` (a member) sees it.
    func photo(_ photo: PhotoID, of profile: BabyProfileID, readBy reader: UserID) async throws
        -> StoredBabyPhoto
    {
        let photos = try await membership.scoped(reader, profile: profile, row: BabyPhotoStore.storedPhoto) {
            BabyPhotoStore.photos(of: $0, only: photo, after: nil, limit: 1)
        }
        guard let stored = photos.first else { throw FamilyError.photoNotFound }
        return stored
    }

    /// The photo's details, then its bytes in chunks, each handed to `send`.
    func download(
        _ photo: PhotoID, of profile: BabyProfileID, readBy reader: UserID,
        send: (Kindred_Family_V1_DownloadPhotoResponse) async throws -> Void
    ) async throws {
        let stored = try await self.photo(photo, of: profile, readBy: reader)
        // A photo deleted between the read and the open has no bytes: it is gone, as for any reader after.
        guard let reader = try await openCommitted(stored.key) else {
            throw FamilyError.photoNotFound
        }
        try await send(Kindred_Family_V1_DownloadPhotoResponse(photo: stored.proto))
        while let chunk = try await reader.next() {
            try await send(Kindred_Family_V1_DownloadPhotoResponse(chunk: chunk))
        }
    }

    /// The bytes of a photo whose row was just read. An upload publishes its bytes only after its row committed,
    /// so a reader in between (on another replica, say: ListPhotos showed the photo) publishes them itself.
    private func openCommitted(_ key: PhotoObjectKey) async throws(PhotoStoreError) -> (
        any PhotoObjectReader
    )? {
        if let reader = try await store.open(key, chunkSize: Self.chunkSize) { return reader }
        guard try await store.publish(key) else { return nil }
        return try await store.open(key, chunkSize: Self.chunkSize)
    }

    /// The photos of one profile, or of every profile of `reader`'s, newest first.
    func list(_ query: PhotoQuery, readBy reader: UserID) async throws -> Kindred_Family_V1_ListPhotosResponse
    {
        let (profile, page) = (query.profile, query.page)
        let photos = try await membership.scoped(reader, profile: profile, row: BabyPhotoStore.storedPhoto) {
            BabyPhotoStore.photos(of: $0, after: page.after, limit: page.size + 1)
        }
        let (served, next) = page.served(photos) { [$0.id.description] }
        return Kindred_Family_V1_ListPhotosResponse(photos: served.map(\.proto), page: next)
    }

    /// Replaces the caption, for an owner.
    func updateCaption(_ change: CaptionChange, by owner: UserID) async throws -> StoredBabyPhoto {
        let (profileID, photoID) = (change.profile, change.photo)
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profileID, in: tx)
            guard
                try await BabyPhotoStore.updateCaption(photoID, of: profileID, to: change.caption, in: tx)
            else {
                throw FamilyError.photoNotFound
            }
        }
        return try await read(photoID, of: profileID)
    }

    /// Deletes a photo, for an owner: the row (with its squishes and comments) commits first, then the bytes
    /// go; a crash between leaves bytes no row names, which the orphan sweep removes.
    func delete(_ photoID: PhotoID, of profileID: BabyProfileID, by owner: UserID) async throws {
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profileID, in: tx)
            guard try await BabyPhotoStore.delete(photoID, of: profileID, in: tx) else {
                throw FamilyError.photoNotFound
            }
        }
        try await store.delete(PhotoObjectKey(profile: profileID, photo: photoID))
    }

    /// `photo` of `profile`; PHOTO_NOT_FOUND when it is not on the profile.
    func read(_ photo: PhotoID, of profile: BabyProfileID) async throws -> StoredBabyPhoto {
        guard
            let stored = try await BabyPhotoStore.photos(
                of: [profile], only: photo, after: nil, limit: 1, on: database
            ).first
        else { throw FamilyError.photoNotFound }
        return stored
    }

    /// A caption as stored: trimmed, at most `captionLimit` characters, no control characters.
    static func caption(_ text: String, _ violations: inout FieldViolations, field: String = "caption")
        -> String
    {
        let caption = ContentText.trimmed(text)
        violations.add(field, ContentText.problem(caption, limit: captionLimit, required: false))
        return caption
    }

    /// A profile id and a photo id, or INVALID_ARGUMENT naming each bad one.
    static func ids(_ profile: String, _ photo: String) throws(RPCError) -> (BabyProfileID, PhotoID) {
        try FieldViolations.ids(("profile_id", profile), ("photo_id", photo))
    }
}
