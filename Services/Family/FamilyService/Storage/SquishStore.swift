import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `family.photo_squishes` and `family.arrival_squishes` (migration 17): one row per member who squishes, and
/// the count kept on the squished row (`baby_photos`, `baby_arrivals`) in the same transaction.
enum SquishStore {
    /// Holds `user`'s membership of `profile` and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`), then, for a member, locks the squished row until `tx` ends, so that
    /// squishes of one target count one after the other. One statement: the author (nil when not a member of
    /// the active profile, nothing locked then) and the target's squish count, nil when it is not on `profile`.
    static func lock(
        _ target: SquishTarget, of profile: BabyProfileID, by user: UserID, seals: BabySeals,
        in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, count: Int?)? {
        var query: PostgresQuery = "WITH author AS (\(BabyActivityStore.authorHold(user, of: profile))) "
        query.append(unsafeSQL: "SELECT author.*, (SELECT squish_count FROM \(target.countedTable) WHERE ")
        target.appendKey(of: profile, to: &query)
        query.append(unsafeSQL: " FOR NO KEY UPDATE) FROM author")
        guard let row = try await tx.query(query).first,
            let author = try BabyActivityStore.author(row, of: profile, seals: seals)
        else { return nil }
        // The count follows the author's thirteen columns.
        return (author, try row.decode(Int?.self, column: 13))
    }

    /// Records `user`'s squish (`squished`) or takes it back, and moves the count with it, in one statement
    /// (the target's row locked before, by `lock`): the new count, or nil when nothing changed (they already
    /// squished it, or had not).
    static func set(
        _ target: SquishTarget, of profile: BabyProfileID, by user: UserID, squished: Bool, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Int? {
        var query = PostgresQuery(unsafeSQL: "WITH changed AS (")
        if squished {
            query.append(unsafeSQL: "INSERT INTO \(target.squishTable) SELECT ")
            target.appendKeyValues(of: profile, to: &query)
            query.append(unsafeSQL: ", ")
            query.append(bind: user)
            query.append(unsafeSQL: "::uuid, ")
            query.append(bind: now)
            query.append(unsafeSQL: " ON CONFLICT DO NOTHING RETURNING 1)")
        } else {
            query.append(unsafeSQL: "DELETE FROM \(target.squishTable) WHERE ")
            target.appendKey(of: profile, to: &query)
            query.append(unsafeSQL: " AND user_id = ")
            query.append(bind: user)
            query.append(unsafeSQL: "::uuid RETURNING 1)")
        }
        query.append(unsafeSQL: " UPDATE \(target.countedTable) SET squish_count = squish_count ")
        query.append(unsafeSQL: squished ? "+ 1 WHERE " : "- 1 WHERE ")
        target.appendKey(of: profile, to: &query)
        query.append(unsafeSQL: " AND EXISTS (SELECT FROM changed) RETURNING squish_count")
        return try await tx.query(query).first.map { try $0.decode(Int.self, column: 0) }
    }
}

extension SquishTarget {
    /// The table holding the count (trusted constants, never from a request).
    fileprivate var countedTable: String {
        switch self {
        case .photo: "family.baby_photos"
        case .arrival: "family.baby_arrivals"
        }
    }

    /// The table holding one row per squishing member, its columns in key order then user_id, squished_at.
    fileprivate var squishTable: String {
        switch self {
        case .photo: "family.photo_squishes"
        case .arrival: "family.arrival_squishes"
        }
    }

    /// `profile_id = $n [AND photo_id = $m]`.
    fileprivate func appendKey(of profile: BabyProfileID, to query: inout PostgresQuery) {
        query.append(unsafeSQL: "profile_id = ")
        query.append(bind: profile)
        query.append(unsafeSQL: "::uuid")
        if case .photo(let photo) = self {
            query.append(unsafeSQL: " AND photo_id = ")
            query.append(bind: photo)
            query.append(unsafeSQL: "::uuid")
        }
    }

    /// `$n::uuid[, $m::uuid]`: the key's values in column order.
    fileprivate func appendKeyValues(of profile: BabyProfileID, to query: inout PostgresQuery) {
        query.append(bind: profile)
        query.append(unsafeSQL: "::uuid")
        if case .photo(let photo) = self {
            query.append(unsafeSQL: ", ")
            query.append(bind: photo)
            query.append(unsafeSQL: "::uuid")
        }
    }
}
