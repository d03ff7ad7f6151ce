import KindredHandlers
import KindredMessages
import KindredRPC

/// A user's usage settings, checked: an IANA-looking zone name (PostgreSQL's zone database has the last word,
/// see `UsageSettingsStore.replace`), up to 100 hidden apps (duplicates dropped, order kept) and a standing app
/// or none.
struct UsageSettings: Sendable, Equatable {
    static let defaults = UsageSettings(timeZone: "UTC", hiddenApps: [], standingAppID: "")
    static let mostHiddenApps = 100
    static let zoneNameLength = 1...64

    let timeZone: String
    let hiddenApps: [String]
    let standingAppID: String

    init(timeZone: String, hiddenApps: [String], standingAppID: String) {
        self.timeZone = timeZone
        self.hiddenApps = hiddenApps
        self.standingAppID = standingAppID
    }

    /// The settings `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Gamification_V1_SetUsageSettingsRequest) throws(RPCError) {
        let settings = request.settings ?? Kindred_Gamification_V1_UsageSettings()
        var violations = FieldViolations()
        violations.add("settings.time_zone", Self.zoneProblem(settings.timeZone))
        if settings.hiddenApps.count > Self.mostHiddenApps {
            violations.add("settings.hidden_apps", "must hold at most 100 apps")
        }
        for (index, app) in settings.hiddenApps.enumerated() {
            violations.add("settings.hidden_apps[\(index)]", AppID.problem(app))
        }
        if !settings.standingAppID.isEmpty {
            violations.add("settings.standing_app_id", AppID.problem(settings.standingAppID))
        }
        try violations.throwIfAny()
        var seen: Set<String> = []
        self.init(
            timeZone: settings.timeZone, hiddenApps: settings.hiddenApps.filter { seen.insert($0).inserted },
            standingAppID: settings.standingAppID)
    }

    /// An IANA name is "UTC" or Area/Location, of letters, digits and `/_+-`; nil when `name` looks like one.
    private static func zoneProblem(_ name: String) -> String? {
        if name.isEmpty { return "is required" }
        let allowed = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || "0123456789/_+-".unicodeScalars.contains($0))
        }
        guard zoneNameLength.contains(name.count), allowed, name == "UTC" || name.contains("/"),
            !name.hasPrefix("posix/"), !name.hasPrefix("right/")
        else { return "is not a known time zone name, such as Europe/Rome" }
        return nil
    }

    var proto: Kindred_Gamification_V1_UsageSettings {
        Kindred_Gamification_V1_UsageSettings(
            timeZone: timeZone, hiddenApps: hiddenApps, standingAppID: standingAppID)
    }
}
