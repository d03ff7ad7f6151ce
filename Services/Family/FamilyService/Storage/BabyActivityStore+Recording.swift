import KindredPostgres

/// An activity entry's writes as one statement: issue 27's "≤ 3 statements a call" counts each statement, and
/// the row, the feed line, the event and the notices of an entry read nothing any of the others writes.
extension BabyActivityStore {
    /// Sends with the COMMIT of `tx`, as ONE statement, the activity row (`insert`), its line on the feed, its
    /// `WatchEvents` events and, when members are told, the notice fan-out (`BabyNoticeStore.fanOut`), whose
    /// recipients are woken once the transaction committed. Each part is a CTE: PostgreSQL runs every
    /// data-modifying CTE to completion whether or not the statement reads it, in the transaction of the change,
    /// so all of it commits with the change or none of it does.
    static func record(
        _ row: PostgresQuery, feed: PostgresQuery, events: [PostgresQuery], fanOut: PostgresQuery?,
        in tx: PostgresTransaction
    ) {
        var statement: PostgresQuery = "WITH activity AS (\(row)), feed AS (\(feed))"
        for (number, event) in events.enumerated() {
            statement.append(unsafeSQL: ", event\(number) AS (")
            statement.append(event)
            statement.append(unsafeSQL: ")")
        }
        guard let fanOut else {
            statement.append(unsafeSQL: " SELECT")
            tx.queryAtCommit(statement)
            return
        }
        statement.append(unsafeSQL: ", ")
        statement.append(fanOut)
        statement.append(unsafeSQL: " " + BabyNoticeStore.recipients)
        tx.queryAtCommit(statement) { BabyNoticeStore.announce($0, in: tx) }
    }
}
