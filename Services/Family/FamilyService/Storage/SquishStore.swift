import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `family.photo_squishes` and `family.arrival_squishes` (migration 17): one row per member who squishes, and
/// the count kept on the squished row (`baby_photos`, `baby_arrivals`) in the same transaction.
enum SquishStore {
    /// What setting a squish found: the member, for the activity log; the target's squish count afterwards
    /// (nil when the target is not on the profile); whether the squish changed (a member squishes once).
    struct Change {
        let author: ActivityAuthor
        let count: Int?
        let changed: Bool
    }

    /// Records `user`'s squish of `target` (`squished`) or takes it back, and moves the count with it, in one
    /// statement. It holds `user`'s membership of `profile` and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`); for a member it locks the squished row until `tx` ends, so squishes
    /// of one target count one after the other: a racing squish waits, then sees the count and the squish the
    /// first committed. The lock is taken in the transaction's only statement before its COMMIT, so it is held
    /// for one round trip and the commit. Nil when `user` is not a member of the active profile (nothing
    /// locked or written then).
    ///
    /// A squish's insert sees a racing one (`ON CONFLICT` checks what is committed now), but a take-back's
    /// DELETE reads with the snapshot the statement began with, before its lock was granted: the user's own
    /// squish, committed while it waited, is not there to delete. The statement says so (the row it locked is
    /// a newer version than its snapshot's), and a take-back that changed nothing then runs again, the lock
    /// held, with a snapshot that sees it.
    static func set(
        _ target: SquishTarget, of profile: BabyProfileID, by user: UserID, squished: Bool, at now: Date,
        seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> Change? {
        func once() async throws -> (Change, changedWhileWaiting: Bool)? {
            try await setOnce(
                target, of: profile, by: user, squished: squished, at: now, seals: seals, in: tx)
        }
        guard let (change, changedWhileWaiting) = try await once() else { return nil }
        guard !squished && !change.changed && changedWhileWaiting else { return change }
        return try await once()?.0
    }

    /// `set`'s statement, run once: its change, and whether the target changed while it waited for the lock.
    private static func setOnce(
        _ target: SquishTarget, of profile: BabyProfileID, by user: UserID, squished: Bool, at now: Date,
        seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> (Change, changedWhileWaiting: Bool)? {
        var query: PostgresQuery = "WITH author AS (\(BabyActivityStore.authorHold(user, of: profile))), "
        query.append(unsafeSQL: "target AS (SELECT squish_count, xmin FROM \(target.countedTable) WHERE ")
        target.appendKey(of: profile, to: &query)
        query.append(unsafeSQL: " AND EXISTS (SELECT FROM author) FOR NO KEY UPDATE), changed AS (")
        if squished {
            query.append(unsafeSQL: "INSERT INTO \(target.squishTable) SELECT ")
            target.appendKeyValues(of: profile, to: &query)
            query.append(unsafeSQL: ", ")
            query.append(bind: user)
            query.append(unsafeSQL: "::uuid, ")
            query.append(bind: now)
            query.append(unsafeSQL: " FROM target ON CONFLICT DO NOTHING RETURNING 1)")
        } else {
            query.append(unsafeSQL: "DELETE FROM \(target.squishTable) WHERE ")
            target.appendKey(of: profile, to: &query)
            query.append(unsafeSQL: " AND user_id = ")
            query.append(bind: user)
            query.append(unsafeSQL: "::uuid AND EXISTS (SELECT FROM target) RETURNING 1)")
        }
        query.append(unsafeSQL: ", counted AS (UPDATE \(target.countedTable) SET squish_count = ")
        query.append(unsafeSQL: squished ? "squish_count + 1 WHERE " : "squish_count - 1 WHERE ")
        target.appendKey(of: profile, to: &query)
        query.append(unsafeSQL: " AND EXISTS (SELECT FROM changed) RETURNING squish_count), ")
        // The target's row as the statement's snapshot has it: an older version than the one locked when a
        // change committed while the lock was awaited.
        query.append(unsafeSQL: "seen AS (SELECT xmin FROM \(target.countedTable) WHERE ")
        target.appendKey(of: profile, to: &query)
        query.append(
            unsafeSQL: """
                ) SELECT author.*, coalesce((SELECT squish_count FROM counted), (SELECT squish_count FROM target)), \
                EXISTS (SELECT FROM counted), coalesce((SELECT xmin FROM target) <> (SELECT xmin FROM seen), false) \
                FROM author
                """)
        guard let row = try await tx.query(query).first,
            let author = try BabyActivityStore.author(row, of: profile, seals: seals)
        else { return nil }
        // The count and the change follow the author's thirteen columns.
        let change = Change(
            author: author, count: try row.decode(Int?.self, column: 13),
            changed: try row.decode(Bool.self, column: 14))
        return (change, try row.decode(Bool.self, column: 15))
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
