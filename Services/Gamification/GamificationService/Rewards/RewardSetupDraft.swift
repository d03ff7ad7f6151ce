import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// A child's reward setup: which apps are learning or reward apps and the two rates, checked as a request
/// brings it (each bad entry named by its field) and as the store keeps it.
struct RewardSetupDraft: Sendable, Equatable {
    enum Kind: Int32, Sendable {
        case learning = 1
        case reward = 2
    }

    struct App: Sendable, Equatable {
        let id: String
        let kind: Kind
    }

    static let mostApps = 100
    static let rates: ClosedRange<Int32> = 1...1000

    let apps: [App]
    let pointsPerLearningMinute: Int32
    let pointsPerRewardMinute: Int32
    /// Nil for a setup not stored yet.
    let updatedAt: Date?

    /// The setup `request` asks for; INVALID_ARGUMENT naming each bad field.
    init(_ request: Kindred_Gamification_V1_SetRewardSetupRequest) throws(RPCError) {
        var violations = FieldViolations()
        if request.apps.count > Self.mostApps { violations.add("apps", "must list at most 100 apps") }
        var seen: Set<String> = []
        var apps: [App] = []
        for (index, app) in request.apps.enumerated() {
            violations.add("apps[\(index)].app_id", AppID.problem(app.appID))
            if !seen.insert(app.appID).inserted {
                violations.add(
                    "apps[\(index)].app_id", "is listed twice: an app is a learning or a reward app")
            }
            guard let kind = Kind(rawValue: Int32(app.kind.rawValue)) else {
                violations.add(
                    "apps[\(index)].kind", "must be REWARD_APP_KIND_LEARNING or REWARD_APP_KIND_REWARD")
                continue
            }
            apps.append(App(id: app.appID, kind: kind))
        }
        for (field, rate) in [
            ("points_per_learning_minute", request.pointsPerLearningMinute),
            ("points_per_reward_minute", request.pointsPerRewardMinute),
        ] where !Self.rates.contains(rate) {
            violations.add(field, "must be 1 to 1000")
        }
        try violations.throwIfAny()
        self.init(
            apps: apps, pointsPerLearningMinute: request.pointsPerLearningMinute,
            pointsPerRewardMinute: request.pointsPerRewardMinute, updatedAt: nil)
    }

    init(apps: [App], pointsPerLearningMinute: Int32, pointsPerRewardMinute: Int32, updatedAt: Date?) {
        self.apps = apps
        self.pointsPerLearningMinute = pointsPerLearningMinute
        self.pointsPerRewardMinute = pointsPerRewardMinute
        self.updatedAt = updatedAt
    }

    /// The setup as the API shows it; an absent one has no apps and zero rates.
    static func message(_ setup: Self?, of child: UserID) -> Kindred_Gamification_V1_RewardSetup {
        var message = Kindred_Gamification_V1_RewardSetup()
        message.childUserID = child.description
        guard let setup else { return message }
        message.apps = setup.apps.map { app in
            var entry = Kindred_Gamification_V1_RewardApp()
            entry.appID = app.id
            entry.kind = app.kind == .learning ? .learning : .reward
            return entry
        }
        message.pointsPerLearningMinute = setup.pointsPerLearningMinute
        message.pointsPerRewardMinute = setup.pointsPerRewardMinute
        message.updatedAt = setup.updatedAt
        return message
    }
}
