import FoundationEssentials

/// How a batch moves the daily totals when the time of one app on one device counts once: per track the
/// batch touches, the time its sessions cover after the batch against before it, in the user's zone now. Time
/// that only a replaced version covers, counted in another zone (the user changed zone since), is first taken
/// back there and counted again in the zone now; then time newly covered is added and time no longer covered
/// (a replaced version moved or shortened, with nothing else of the track over it) is taken back.
struct UsageTally: Sendable, Equatable {
    /// Time to add (`sign` 1) or take back (-1), split into local days of `zone` by the statement that applies it.
    struct Move: Sendable, Equatable {
        let appID: String
        let span: Range<Date>
        let zone: String
        let sign: Int
    }

    /// A session of the batch, with the version it replaces and the zone that one counted in.
    struct Change: Sendable {
        let new: UsageBatch.Session
        let old: (session: UsageBatch.Session, zone: String)?
    }

    let moves: [Move]

    /// The moves of `changes`, given what the user's other stored sessions cover on the days the changes touch
    /// (`counts`: the stored counts with the replaced versions taken out) and the zone new time counts in.
    init(_ changes: [Change], others counts: [UsageDayCounts], zone: String) {
        let olds = changes.compactMap(\.old)
        let tracks = Set(changes.map(\.new.track) + olds.map(\.session.track))
        var moves: [Move] = []
        for track in tracks.sorted(by: { ($0.appID, $0.deviceID) < ($1.appID, $1.deviceID) }) {
            let move = { (span: Range<Date>, zone: String, sign: Int) in
                Move(appID: track.appID, span: span, zone: zone, sign: sign)
            }
            let replacedHere = olds.filter { $0.session.track == track }
            let newHere = changes.map(\.new).filter { $0.track == track }.map(\.span)
            var changed = newHere
            changed.append(contentsOf: replacedHere.lazy.map(\.session.span))
            changed.sort { $0.lowerBound < $1.lowerBound }
            // Every comparison below is within the changed spans, so only the stored time near them can show:
            // a busy day's other stretches are left out rather than merged and subtracted on every upload.
            let others = counts.covered(track, near: changed)
            // Time that only a replaced version counted in another zone covers moves to the user's zone first,
            // as a newer version counts in the zone of its upload; what follows then compares within one zone.
            var settled = others
            let rezoned = Dictionary(grouping: replacedHere.filter { $0.zone != zone }, by: \.zone)
            for (oldZone, versions) in rezoned.sorted(by: { $0.key < $1.key }) {
                let pieces = UsageCoverage(versions.map(\.session.span)).subtracting(UsageCoverage(settled))
                moves += pieces.flatMap { [move($0, oldZone, -1), move($0, zone, 1)] }
                settled += pieces
            }
            let was = UsageCoverage(others + replacedHere.map(\.session.span))
            let now = UsageCoverage(others + newHere)
            moves += now.subtracting(was).map { move($0, zone, 1) }
            moves += was.subtracting(now).map { move($0, zone, -1) }
        }
        self.moves = moves
    }

    /// The UTC days the changed versions, new and replaced, touch: all the moves of `changes` fall in them.
    static func days(of changes: [Change]) -> [Date] {
        let spans = changes.flatMap { [$0.new.span] + ($0.old.map { [$0.session.span] } ?? []) }
        return Set(spans.flatMap(UsageDayCounts.days(of:))).sorted()
    }
}
