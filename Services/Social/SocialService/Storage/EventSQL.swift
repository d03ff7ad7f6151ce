import KindredHandlers
import KindredPostgres

/// The SQL every read of events shares, as constant text (only the constants below exist). A statement binds
/// the viewer once, in the row `\(asking: viewer)` that names it `q.viewer` (with `q.filter_threshold`,
/// `ReportTally.filterThreshold`), aliases the event `e` and its organizer's `social.people` row `p`, and
/// writes these fragments.
struct EventSQL: Sendable {
    let text: String

    private init(_ text: String) { self.text = text }

    /// The event's columns, then whether the viewer joined it and whether it has any media (a page whose
    /// events have none needs no read of media; written on the row with the event, migration 14):
    /// `EventStore.viewedEvent` decodes them.
    static let columns = EventSQL(
        """
        e.id::text, e.organizer_id::text, p.username, e.title, e.description, e.starts_at, e.ends_at, \
        e.place, e.public, e.mature, e.created_at, e.attendee_count, \
        EXISTS (SELECT 1 FROM social.event_attendees a WHERE a.event_id = e.id AND a.user_id = q.viewer), \
        e.has_media
        """)

    /// How many columns `columns` selects.
    static let columnCount = 14

    /// The viewer may see the event: they organize it, or there is no block either way between them and its
    /// organizer and it is public, or they are its organizer's friend, or they were invited.
    static let visible = EventSQL(
        """
        (e.organizer_id = q.viewer OR (\(unblockedText)
            AND (e.public
                 OR EXISTS (SELECT 1 FROM social.friendships s
                            WHERE s.user_id = q.viewer AND s.friend_id = e.organizer_id)
                 OR EXISTS (SELECT 1 FROM social.event_invitations i
                            WHERE i.event_id = e.id AND i.user_id = q.viewer))))
        """)

    /// `visible` where the statement has already established one of the ways to see the event (it is public,
    /// its organizer is the viewer's friend, the viewer was invited), as each branch of the feed does by what it
    /// walks: the viewer organizes it, or there is no block either way. The friend and invitation tests left out
    /// would be two subplans more in each branch for PostgreSQL to set up on every execution, for nothing
    /// (measured: the feed's page took 0.38–0.42 ms with them, 0.20–0.21 without; Services/Social/README.md).
    static let visibleByItsBranch = EventSQL("(e.organizer_id = q.viewer OR (\(unblockedText)))")

    /// No block either way between the viewer and the event's organizer.
    private static let unblockedText = """
        NOT EXISTS (SELECT 1 FROM social.blocks b
                    WHERE b.blocker_id = q.viewer AND b.blocked_id = e.organizer_id)
        AND NOT EXISTS (SELECT 1 FROM social.blocks b
                        WHERE b.blocker_id = e.organizer_id AND b.blocked_id = q.viewer)
        """

    /// Enough people reported the event to filter it for everyone: `ReportStore.record` marks the row when its
    /// tally reaches `ReportTally.filterThreshold`, so reads test the row they fetch, not a tally per event.
    static let reported = EventSQL("e.filtered")

    /// The event belongs on the feed page `q` describes (`asking:_:_:`), in a branch of the feed that walks only
    /// events the viewer has a way to see: before the page's position, visible, not reported, and not mature
    /// when the viewer's filter hides mature events.
    static let onFeedPage = EventSQL(
        """
        e.created_at <= q.before AND (e.created_at < q.before OR e.id < q.before_id)
        AND NOT (e.mature AND q.hide_mature) AND NOT \(reported.text) AND \(visibleByItsBranch.text)
        """)

    /// A media item's columns as the viewer stands with it: reported (content kind 4, media) or not, and the
    /// viewer's approval to see it. `EventMediaStore` decodes them.
    static let mediaColumns = EventSQL(
        """
        m.id::text, m.event_id::text, m.url, m.content_type, m.flagged,
        EXISTS (SELECT 1 FROM social.report_tallies t
                WHERE t.content_kind = 4 AND t.content_id = m.id AND t.reporters >= q.filter_threshold),
        v.approval_id::text, v.state
        """)

    /// Where `mediaColumns` are read, after `q`: the items `m` and the viewer's approvals `v`.
    static let media = EventSQL(
        """
        CROSS JOIN social.event_media m
        LEFT JOIN social.media_view_approvals v ON v.minor_id = q.viewer AND v.media_id = m.id
        """)
}

extension PostgresQuery.StringInterpolation {
    /// Writes a fragment of `EventSQL`: text of the source, never anything from a request.
    mutating func appendInterpolation(_ fragment: EventSQL) {
        appendLiteral(fragment.text)
    }

    /// Writes the one-row relation `q` the fragments read: `viewer` (bound once) and the report threshold.
    mutating func appendInterpolation(asking viewer: UserID) {
        appendLiteral("(SELECT ")
        appendInterpolation(viewer)
        appendLiteral("::uuid AS viewer, ")
        appendInterpolation(ReportTally.filterThreshold)
        appendLiteral("::integer AS filter_threshold) q")
    }

    /// Writes the row `q` of a feed statement: the viewer, the page's position and whether mature events are
    /// left out, for `EventSQL.onFeedPage` (which reads no tally: `reported` is on the event's row).
    mutating func appendInterpolation(asking viewer: UserID, _ page: FeedPage, _ hidingMature: Bool) {
        appendLiteral("(SELECT ")
        appendInterpolation(viewer)
        appendLiteral("::uuid AS viewer, ")
        appendInterpolation(page.before)
        appendLiteral("::timestamptz AS before, ")
        appendInterpolation(page.beforeID)
        appendLiteral("::uuid AS before_id, ")
        appendInterpolation(hidingMature)
        appendLiteral("::boolean AS hide_mature) q")
    }
}
