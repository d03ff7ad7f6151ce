import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// An arrival announcement as members read it.
struct StoredArrival: Sendable {
    let profile: BabyProfileID
    /// The profile's name as members see it.
    let name: String
    let details: ArrivalDetails
    /// The photo's media type; nil with no photo (or once it was deleted).
    let photoMediaType: String?
    let announcedBy: UserID
    let announcedAt: Date
    let updatedAt: Date
    let squishCount: Int
    let squishedByReader: Bool

    /// A row of `ArrivalStore.arrivals`, its sealed values opened with `seals`; its columns from `first` on
    /// (after those of a statement that reads more, `BabyHomeStore.memberships`).
    init(_ row: PostgresRow, seals: BabySeals, from first: Int = 0) throws {
        profile = try row.decode(BabyProfileID.self, column: first)
        name = BabyNames.profile(
            name: try seals.open(
                plain: try row.decode(String?.self, column: first + 1),
                sealed: try row.decode([UInt8]?.self, column: first + 2),
                .name, of: profile),
            namesakeLastName: try ProfileStore.name(row, plain: first + 3, user: first + 14, seals.names.last)
        )
        let record = try seals.open(
            plain: try row.decode(String?.self, column: first + 4),
            sealed: try row.decode([UInt8]?.self, column: first + 5),
            .arrivalBirth, of: profile)
        guard let birth = record.flatMap(ArrivalBirth.init(record:)) else {
            throw PostgresError(kind: .decoding, message: "an arrival of \(profile) holds no birth record")
        }
        details = ArrivalDetails(
            name: nil, birthDate: birth.date, birthTime: birth.time, weightGrams: birth.weightGrams,
            lengthMM: birth.lengthMM, photo: try row.decode(PhotoID?.self, column: first + 6),
            message: try seals.open(
                plain: try row.decode(String?.self, column: first + 8),
                sealed: try row.decode([UInt8]?.self, column: first + 16),
                .arrivalMessage, of: profile) ?? "")
        photoMediaType = try row.decode(String?.self, column: first + 7)
        announcedBy = try row.decode(UserID.self, column: first + 9)
        announcedAt = try row.decode(Date.self, column: first + 10)
        updatedAt = try row.decode(Date.self, column: first + 11)
        squishCount = try row.decode(Int.self, column: first + 12)
        squishedByReader = try row.decode(Bool.self, column: first + 13)
    }

    /// The announcement as the wire carries it.
    var proto: Kindred_Family_V1_BabyArrival {
        let time = details.birthTime.map { text in
            let parts = text.split(separator: ":").compactMap { Int32($0) }
            return Kindred_Family_V1_BirthTime(hours: parts.first ?? 0, minutes: parts.last ?? 0)
        }
        return Kindred_Family_V1_BabyArrival(
            profileID: profile.description, name: name, birthDate: details.birthDate.proto, birthTime: time,
            weightGrams: Int32(details.weightGrams ?? 0), lengthMm: Int32(details.lengthMM ?? 0),
            photoID: details.photo?.description ?? "", message: details.message,
            announcedByUserID: announcedBy.description, announcedAt: announcedAt,
            updatedAt: updatedAt, squishCount: Int32(squishCount),
            squishedByMe: squishedByReader)
    }
}
