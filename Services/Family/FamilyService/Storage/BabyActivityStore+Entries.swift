import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

extension BabyActivityStore {
    /// The entries of one page of `recent` rows, each actor's name opened once per page: a home page of twenty
    /// entries has a handful of actors, and a name is two decryptions (first and last name), which were a tenth
    /// of family's CPU in a GetHome (`perf record` of GetHome alone, session 35).
    struct Entries {
        private let details: SealedText<ActivityDetails.Key>
        private let people: ProfileNames
        /// The actor names of the rows decoded so far. Every row of a page comes from one statement, so an
        /// actor's columns are the same in each of its rows.
        private var actorNames: [UserID: String] = [:]

        init(cipher: FieldCipher) {
            details = ActivityDetails.sealed(with: cipher)
            people = ProfileNames(cipher: cipher)
        }

        /// The entry of a `recent` row, its detail opened.
        mutating func entry(_ row: PostgresRow) throws -> Kindred_Family_V1_BabyActivity {
            let (profile, id, kind, actor) = (
                try row.decode(BabyProfileID.self, column: 0), try row.decode(BabyActivityID.self, column: 1),
                try row.decode(Int32.self, column: 2), try row.decode(UserID.self, column: 3)
            )
            let (subject, plain, occurred, sealed) = (
                try row.decode(String.self, column: 7), try row.decode(String?.self, column: 8),
                try row.decode(Date.self, column: 9), try row.decode([UInt8]?.self, column: 10)
            )
            let detail = try details.open(
                StoredText(plain: sealed == nil ? plain ?? "" : nil, sealed: sealed),
                of: ActivityDetails.Key(profile: profile, activity: id))
            return Kindred_Family_V1_BabyActivity(
                profileID: profile.description, activityID: id.description,
                kind: Kindred_Family_V1_BabyActivityKind(rawValue: kind),
                actorID: actor.description, actorName: try actorName(actor, in: row),
                subjectID: subject, detail: detail,
                occurredAt: occurred)
        }

        private mutating func actorName(_ actor: UserID, in row: PostgresRow) throws -> String {
            if let known = actorNames[actor] { return known }
            let name = BabyNames.person(
                displayName: try row.decode(String.self, column: 4),
                firstName: try ProfileStore.name(row, plain: 5, user: 11, people.first),
                lastName: try ProfileStore.name(row, plain: 6, user: 13, people.last))
            actorNames[actor] = name
            return name
        }
    }
}
