import Foundation
@testable import GamificationService
import KindredTestSupport
import Testing

/// `UsageTally` compares coverage only near the changed spans (`UsageDayCounts.covered(_:near:)`); each case gives
/// the same moves as comparing every stored stretch of the track (`reference`, the tally as it was before issue
/// 27 item 2), which the cases keep as the oracle, and the moves a person would count by hand.
@Suite struct UsageTallyTests {
    /// Stored stretches (hours of the first day, or past 24 on the next), a batch (each new span with the span
    /// of the version it replaces, if any), and the moves expected (hours, +1 added, -1 taken back).
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let stored: [(Double, Double, Int64)]
        let batch: [(new: (Double, Double), old: (Double, Double)?)]
        let expected: [(Double, Double, Int)]

        var testDescription: String { name }
    }

    static let stretches: [(Double, Double, Int64)] = [(1, 2, 1), (3, 4, 2), (5, 6, 1), (22, 23, 1)]

    static let cases: [Case] = [
        Case(
            name: "a span bridging two stored stretches adds only the gap", stored: stretches,
            batch: [((1.5, 5.5), nil)], expected: [(2, 3, 1), (4, 5, 1)]),
        Case(
            name: "a span inside a stored stretch adds nothing", stored: stretches,
            batch: [((3.25, 3.75), nil)], expected: []),
        Case(
            name: "a span touching two stretches' ends adds the gap between", stored: stretches,
            batch: [((2, 3), nil)], expected: [(2, 3, 1)]),
        Case(
            name: "a span before the first stretch", stored: stretches, batch: [((0, 0.5), nil)],
            expected: [(0, 0.5, 1)]),
        Case(
            name: "a span after the last stretch", stored: stretches, batch: [((23.5, 23.75), nil)],
            expected: [(23.5, 23.75, 1)]),
        Case(
            name: "a replacement that shrinks takes back what nothing else covers",
            stored: stretches + [(8, 10, 1)], batch: [((8, 8.5), (8, 10))], expected: [(8.5, 10, -1)]),
        Case(
            name: "a replacement moved off a shared stretch takes back nothing the others cover",
            stored: [(3, 4, 2), (4, 5, 1)], batch: [((10, 11), (3, 5))], expected: [(10, 11, 1), (4, 5, -1)]),
        Case(
            name: "a span across midnight meets stretches on both days",
            stored: [(22, 23, 1), (23.5, 24, 1), (24, 24.5, 1), (25, 26, 1)],
            batch: [((22.5, 25.5), nil)], expected: [(23, 23.5, 1), (24.5, 25, 1)]),
        Case(
            name: "two spans of one batch around one stretch", stored: stretches,
            batch: [((0.5, 1.5), nil), ((1.75, 2.5), nil)], expected: [(0.5, 1, 1), (2, 2.5, 1)]),
    ]

    @Test(arguments: cases) func movesNearTheBatchAreTheMovesOfTheWholeDay(_ test: Case) {
        let counts = Self.counts([(Self.track, test.stored)])
        let changes = test.batch.enumerated().map { index, spans in
            Self.change("s\(index)", Self.track, spans.new, old: spans.old.map { ($0, "UTC") })
        }
        let tally = UsageTally(changes, others: Self.without(changes, counts), zone: "UTC")
        #expect(tally.moves == Self.reference(changes, others: Self.without(changes, counts), zone: "UTC"))
        #expect(
            tally.moves
                == test.expected.map {
                    UsageTally.Move(appID: "chess", span: Self.span($0.0, $0.1), zone: "UTC", sign: $0.2)
                })
    }

    /// Random days of two tracks and random batches (new sessions and replacements, some counted before in
    /// another zone, some across midnight): the same moves as comparing every stored stretch.
    @Test func randomBatchesMoveAsComparingTheWholeDayDid() {
        var random = SeededRandom(seed: 272)
        let tracks = [Self.track, UsageTrack(deviceID: "tablet", appID: "chess")]
        let quarter = { (range: UInt64) in Double(random.next() % range) / 4 }
        for round in 0..<300 {
            var stored: [(UsageTrack, [(Double, Double, Int64)])] = []
            for track in tracks {
                var stretches: [(Double, Double, Int64)] = []
                var hour = quarter(8)
                while hour < 47 {
                    let end = hour + 0.25 + quarter(8)
                    stretches.append((hour, end, Int64(random.next() % 3 + 1)))
                    hour = end + (random.next() % 3 == 0 ? 0 : 0.25 + quarter(12))
                }
                stored.append((track, stretches))
            }
            let counts = Self.counts(stored)
            let changes = (0..<Int(random.next() % 5 + 1)).map { index in
                let from = quarter(184)
                let new = (from, from + 0.25 + quarter(16))
                let old =
                    random.next() % 2 == 0
                    ? nil
                    : { () -> ((Double, Double), String) in
                        let at = quarter(184)
                        return (
                            (at, at + 0.25 + quarter(16)), random.next() % 3 == 0 ? "Europe/Paris" : "UTC"
                        )
                    }()
                return Self.change("s\(index)", tracks[Int(random.next() % 2)], new, old: old)
            }
            let others = Self.without(changes, counts)
            let moves = UsageTally(changes, others: others, zone: "UTC").moves
            guard moves == Self.reference(changes, others: others, zone: "UTC") else {
                Issue.record(
                    "round \(round): \(moves) != \(Self.reference(changes, others: others, zone: "UTC"))")
                return
            }
        }
    }

    static let track = UsageTrack(deviceID: "", appID: "chess")
    static let day = TestClock.parse("2026-05-01T00:00:00Z")

    static func span(_ from: Double, _ to: Double) -> Range<Date> {
        UsageSessions.instant(
            UsageDayCountsTests.at(from))..<UsageSessions.instant(UsageDayCountsTests.at(to))
    }

    /// The counts of two UTC days holding `stored`, each stretch cut at midnight as the days keep it.
    static func counts(_ stored: [(UsageTrack, [(Double, Double, Int64)])]) -> [UsageDayCounts] {
        [day, day.addingTimeInterval(86_400)].map { midnight in
            var counts = UsageDayCounts(day: midnight)
            for (track, stretches) in stored {
                for (from, to, count) in stretches {
                    let session = UsageBatch.Session(
                        clientSessionID: "stored", appID: track.appID, start: span(from, to).lowerBound,
                        end: span(from, to).upperBound, updatedAt: day, deviceID: track.deviceID)
                    for _ in 0..<count { counts.add(session, 1) }
                }
            }
            return counts
        }
    }

    static func change(
        _ id: String, _ track: UsageTrack, _ new: (Double, Double), old: ((Double, Double), String)?
    ) -> UsageTally.Change {
        let session = { (hours: (Double, Double)) in
            UsageBatch.Session(
                clientSessionID: id, appID: track.appID, start: span(hours.0, hours.1).lowerBound,
                end: span(hours.0, hours.1).upperBound, updatedAt: day, deviceID: track.deviceID)
        }
        return UsageTally.Change(new: session(new), old: old.map { (session: session($0.0), zone: $0.1) })
    }

    /// `counts` with the replaced versions taken out, as `UsageStore.store` gives them to the tally.
    static func without(_ changes: [UsageTally.Change], _ counts: [UsageDayCounts]) -> [UsageDayCounts] {
        var counts = counts
        for old in changes.compactMap(\.old) { counts.add(old.session, -1) }
        return counts
    }

    /// The tally as it was: every stored stretch of each track merged with the batch and compared.
    static func reference(_ changes: [UsageTally.Change], others counts: [UsageDayCounts], zone: String)
        -> [UsageTally.Move]
    {
        let olds = changes.compactMap(\.old)
        let tracks = Set(changes.map(\.new.track) + olds.map(\.session.track))
        var moves: [UsageTally.Move] = []
        for track in tracks.sorted(by: { ($0.appID, $0.deviceID) < ($1.appID, $1.deviceID) }) {
            let move = { (span: Range<Date>, zone: String, sign: Int) in
                UsageTally.Move(appID: track.appID, span: span, zone: zone, sign: sign)
            }
            let others = counts.flatMap { day in
                (day.tracks[track] ?? []).map {
                    UsageSessions.instant($0.start)..<UsageSessions.instant($0.end)
                }
            }
            let replacedHere = olds.filter { $0.session.track == track }
            var settled = others
            let rezoned = Dictionary(grouping: replacedHere.filter { $0.zone != zone }, by: \.zone)
            for (oldZone, versions) in rezoned.sorted(by: { $0.key < $1.key }) {
                let pieces = UsageCoverage(versions.map(\.session.span)).subtracting(UsageCoverage(settled))
                moves += pieces.flatMap { [move($0, oldZone, -1), move($0, zone, 1)] }
                settled += pieces
            }
            let was = UsageCoverage(others + replacedHere.map(\.session.span))
            let now = UsageCoverage(others + changes.map(\.new).filter { $0.track == track }.map(\.span))
            moves += now.subtracting(was).map { move($0, zone, 1) }
            moves += was.subtracting(now).map { move($0, zone, -1) }
        }
        return moves
    }
}
