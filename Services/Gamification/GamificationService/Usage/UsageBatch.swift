import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// An `UploadUsageRequest` whose sessions were all checked: 1 to 500 of them, each well formed, none over
/// 24 hours or ending in the future, no id twice and no two of the same app and device overlapping. One bad entry refuses
/// the batch, and the refusal names every bad entry by index.
struct UsageBatch: Sendable, Equatable {
    static let sizes = 1...500
    static let clientSessionIDLength = 1...100
    static let deviceIDLength = 0...100
    static let longest: TimeInterval = 24 * 3_600
    /// How far past the server's clock a device's clock may run.
    static let clockSkew: TimeInterval = 5 * 60
    /// Nothing the product tracks happened before this (2000-01-01).
    static let earliest = Date(timeIntervalSince1970: 946_684_800)

    struct Session: Sendable, Equatable {
        let clientSessionID: String
        let appID: String
        let start: Date
        let end: Date
        let updatedAt: Date
        /// The device that recorded it; empty for the user's one device.
        var deviceID: String = ""

        /// The app on the device: time of one such pair counts once however many sessions cover it.
        var track: UsageTrack { UsageTrack(deviceID: deviceID, appID: appID) }
    }

    let sessions: [Session]

    /// The batch `request` holds at `now`, or INVALID_ARGUMENT naming every bad field of every bad entry.
    init(_ request: Kindred_Gamification_V1_UploadUsageRequest, now: Date) throws(RPCError) {
        var violations = FieldViolations()
        if !Self.sizes.contains(request.sessions.count) {
            violations.add("sessions", "must hold 1 to 500 sessions")
        }
        var checked: [(index: Int, session: Session)] = []
        var seen: Set<String> = []
        for (index, session) in request.sessions.enumerated() {
            let field = "sessions[\(index)]"
            if let valid = Self.check(session, field: field, now: now, &violations) {
                if seen.insert(valid.clientSessionID).inserted {
                    checked.append((index, valid))
                } else {
                    violations.add("\(field).client_session_id", "appears earlier in the batch")
                }
            }
        }
        Self.refuseOverlaps(checked, &violations)
        try violations.throwIfAny()
        sessions = checked.map(\.session)
    }

    private static func check(
        _ session: Kindred_Gamification_V1_UsageSession, field: String, now: Date,
        _ violations: inout FieldViolations
    ) -> Session? {
        let before = violations.violations.count
        if !clientSessionIDLength.contains(session.clientSessionID.count) {
            violations.add("\(field).client_session_id", "must be 1 to 100 characters")
        }
        violations.add("\(field).app_id", AppID.problem(session.appID))
        if !deviceIDLength.contains(session.deviceID.count)
            || session.deviceID.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            violations.add(
                "\(field).device_id", "must be at most 100 characters, none of them a control character")
        }
        let start = instant(session.startTime, "\(field).start_time", &violations)
        let end = instant(session.endTime, "\(field).end_time", &violations)
        let updatedAt = instant(session.updatedAt, "\(field).updated_at", &violations)
        let latest = now.addingTimeInterval(clockSkew)
        if let start, start < earliest {
            violations.add("\(field).start_time", "must not be before the year 2000")
        }
        if let start, let end {
            if end <= start {
                violations.add("\(field).end_time", "must be after start_time")
            } else if end.timeIntervalSince(start) > longest {
                violations.add("\(field).end_time", "must be at most 24 hours after start_time")
            }
        }
        if let end, end > latest { violations.add("\(field).end_time", "must not be in the future") }
        if let updatedAt, updatedAt > latest {
            violations.add("\(field).updated_at", "must not be in the future")
        }
        guard violations.violations.count == before, let start, let end, let updatedAt else { return nil }
        return Session(
            clientSessionID: session.clientSessionID, appID: session.appID, start: start, end: end,
            updatedAt: updatedAt, deviceID: session.deviceID)
    }

    /// The instant `timestamp` names; nil, recorded against `field`, when it is missing.
    private static func instant(_ timestamp: Date?, _ field: String, _ violations: inout FieldViolations)
        -> Date?
    {
        guard let timestamp else {
            violations.add(field, "is required")
            return nil
        }
        return timestamp
    }

    /// Records each session that starts before an earlier-starting session of the same app on the same
    /// device has ended.
    private static func refuseOverlaps(
        _ checked: [(index: Int, session: Session)], _ violations: inout FieldViolations
    ) {
        let byTrack = Dictionary(grouping: checked, by: \.session.track)
        for entries in byTrack.values {
            var latestEnd: (end: Date, index: Int)?
            for entry in entries.sorted(by: { ($0.session.start, $0.index) < ($1.session.start, $1.index) }) {
                if let latest = latestEnd, entry.session.start < latest.end {
                    violations.add(
                        "sessions[\(entry.index)].start_time",
                        "overlaps sessions[\(latest.index)] of the same app and device")
                }
                if latestEnd.map({ entry.session.end > $0.end }) ?? true {
                    latestEnd = (entry.session.end, entry.index)
                }
            }
        }
    }
}
