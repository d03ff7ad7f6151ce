import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `CreateBabyProfile`, `GetBabyProfile`, `UpdateBabyProfile` and `DeleteBabyProfile`.
extension BabyProfiles {
    /// Creates a profile owned by `owner`. A retry with the same request_id returns the profile the first
    /// call created, as it stands now, and creates nothing.
    func create(_ draft: BabyProfileDraft, by owner: UserID) async throws -> StoredBabyProfile {
        if let first = try await BabyProfileStore.created(by: owner, requestID: draft.requestID, on: database)
        {
            return try await profile(first, as: owner)
        }
        let now = clock.now
        let profile = BabyProfileID.generate(at: now)
        do {
            try await database.transaction { tx in
                try await BabyProfileStore.insert(
                    profile, draft.fields, owner: owner, draft.relationship, requestID: draft.requestID,
                    now: now, seals: seals, in: tx)
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            // The same request_id committed first, from a retry racing this call: that profile is the answer.
            guard
                let first = try await BabyProfileStore.created(
                    by: owner, requestID: draft.requestID, on: database)
            else { throw error }
            return try await self.profile(first, as: owner)
        }
        return try await self.profile(profile, as: owner)
    }

    /// `profile` as `reader` sees it; NOT_FOUND for anyone but a member, and once it is deactivated.
    func profile(_ profile: BabyProfileID, as reader: UserID) async throws -> StoredBabyProfile {
        guard let stored = try await BabyProfileStore.read(profile, as: reader, seals: seals, on: database)
        else {
            throw FamilyError.babyProfileNotFound
        }
        return stored
    }

    /// Makes `change` on an owner's profile; a new photo must be one of the profile's gallery.
    func update(_ change: BabyProfileChange, by owner: UserID) async throws -> StoredBabyProfile {
        let (id, fields, changed) = (change.profile, change.fields, change.changed)
        let now = clock.now
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: id, in: tx)
            if let photo = fields.photoID, changed.contains(.photoID),
                try await !BabyPhotoStore.holdPhoto(photo, of: id, in: tx)
            {
                var notInGallery = FieldViolations()
                notInGallery.add(
                    "profile.\(BabyProfileField.photoID.rawValue)", "must be a photo of this baby's gallery")
                try notInGallery.throwIfAny()
            }
            try await BabyProfileStore.update(id, fields, changed: changed, now: now, seals: seals, in: tx)
        }
        return try await self.profile(id, as: owner)
    }

    /// Deletes an owner's profile for everyone: its content is kept, unreadable, for `BabyRetention.period`.
    func delete(_ profile: BabyProfileID, by owner: UserID) async throws {
        let now = clock.now
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profile, in: tx)
            try await BabyProfileStore.retire(profile, at: now, in: tx)
        }
    }
}
