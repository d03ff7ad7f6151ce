import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `AnnounceArrival`, `UpdateArrival`, `GetArrival`, `GetArrivalShare`: owners announce the arrival once and
/// correct it afterwards; every member reads it; owners get what their app needs to share it.
struct BabyArrivals: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let membership: BabyMembership
    let seals: BabySeals

    /// Announces the arrival `draft` describes, for an owner: gives the profile the baby's name (when
    /// given), notifies every follower and emits `baby.arrived`, all in one transaction. ALREADY_ANNOUNCED
    /// the second time, however the two calls race.
    func announce(_ draft: ArrivalDraft, by owner: UserID) async throws -> Kindred_Family_V1_BabyArrival {
        let now = clock.now
        let (profile, details) = (draft.profile, draft.details)
        try await database.transaction { tx in
            let author = try await hold(details, of: profile, owner: owner, in: tx)
            guard
                let gender = try await ArrivalStore.insert(
                    details, of: profile, by: owner, at: now, seals: seals, in: tx)
            else {
                throw FamilyError.alreadyAnnounced
            }
            // The notices show the profile's name as the announcement left it: the name given (never empty), else
            // the one it had.
            let name = details.name ?? author.names.profile
            try await BabyActivityLog.record(
                BabyActivityEntry(
                    profile: profile, kind: .babyArrived, actor: owner, subject: nil, detail: name),
                names: (author.names.actor, name), at: now, seals: seals, in: tx
            ) { activity in
                [
                    .babyArrived(
                        Kindred_Family_V1_BabyArrived(
                            profileID: profile.description, name: name, birthDate: details.birthDate.proto,
                            announcedAt: now, actorID: owner.description,
                            activityID: activity.activityID, gender: gender))
                ]
            }
        }
        return try await read(profile, by: owner)
    }

    /// Replaces the announcement's details, for an owner; nobody is notified again.
    func update(_ draft: ArrivalDraft, by owner: UserID) async throws -> Kindred_Family_V1_BabyArrival {
        let now = clock.now
        let (profile, details) = (draft.profile, draft.details)
        try await database.transaction { tx in
            _ = try await hold(details, of: profile, owner: owner, in: tx)
            if let name = details.name {
                try await ArrivalStore.name(profile, name, at: now, seals: seals, in: tx)
            }
            guard try await ArrivalStore.update(details, of: profile, at: now, seals: seals, in: tx) else {
                throw FamilyError.arrivalNotFound
            }
        }
        return try await read(profile, by: owner)
    }

    /// The announcement, for a member.
    func get(_ profile: BabyProfileID, by reader: UserID) async throws -> Kindred_Family_V1_BabyArrival {
        let seals = seals
        let arrivals = try await membership.scoped(
            reader, profile: profile, row: { try StoredArrival($0, seals: seals) }
        ) { ArrivalStore.arrivals(of: $0, since: nil, readBy: reader) }
        guard let arrival = arrivals.first else { throw FamilyError.arrivalNotFound }
        return arrival.proto
    }

    /// What an owner's app shares: the text and the chosen photo to download.
    func share(_ profile: BabyProfileID, by owner: UserID) async throws
        -> Kindred_Family_V1_GetArrivalShareResponse
    {
        try await membership.requireOwner(owner, of: profile)
        guard
            let arrival = try await ArrivalStore.arrivals(
                of: [profile], since: nil, readBy: owner, seals: seals, on: database
            )
            .first
        else { throw FamilyError.arrivalNotFound }
        let photo = arrival.details.photo
        return Kindred_Family_V1_GetArrivalShareResponse(
            text: ArrivalShareText.of(arrival), profileID: photo == nil ? "" : profile.description,
            photoID: photo?.description ?? "", photoMediaType: arrival.photoMediaType ?? "")
    }

    /// Checks, inside `tx`, that `owner` owns `profile` and that the photo is one of its photos. The owner as
    /// their activity entries show them.
    private func hold(
        _ details: ArrivalDetails, of profile: BabyProfileID, owner: UserID, in tx: PostgresTransaction
    ) async throws -> ActivityAuthor {
        let author = try await BabyMembership.holdOwningAuthor(owner, of: profile, seals: seals, in: tx)
        if let photo = details.photo, try await !ArrivalStore.holdPhoto(photo, of: profile, in: tx) {
            throw FamilyError.photoNotFound
        }
        return author
    }

    private func read(_ profile: BabyProfileID, by reader: UserID) async throws
        -> Kindred_Family_V1_BabyArrival
    {
        guard
            let arrival = try await ArrivalStore.arrivals(
                of: [profile], since: nil, readBy: reader, seals: seals, on: database
            ).first
        else { throw FamilyError.arrivalNotFound }
        return arrival.proto
    }
}
