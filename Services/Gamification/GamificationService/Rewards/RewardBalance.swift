import FoundationEssentials
import KindredHandlers
import KindredMessages

/// A child's points as of one instant: earned from learning apps' minutes at the current rate, spent by
/// unlocks (a running one's so far), reserved by running unlocks beyond that. Available never shows below
/// zero: a lowered rate or an app no longer a learning app may take earned below what was spent and reserved.
struct RewardBalance: Sendable {
    struct AppTime: Sendable {
        let app: String
        let kind: RewardSetupDraft.Kind
        let seconds: Int64
        let earnedMinutes: Int64
    }

    struct Unlock: Sendable {
        let app: String
        let endsAt: Date
        let running: Bool
        let reserved: Int64
        let spent: Int64
    }

    let apps: [AppTime]
    let unlocks: [Unlock]
    let pointsPerLearningMinute: Int32
    let pointsPerRewardMinute: Int32

    var earned: Int64 {
        apps.filter { $0.kind == .learning }.reduce(0) {
            $0 + $1.earnedMinutes * Int64(pointsPerLearningMinute)
        }
    }
    var spent: Int64 { unlocks.reduce(0) { $0 + $1.spent } }
    var reserved: Int64 { unlocks.filter(\.running).reduce(0) { $0 + $1.reserved - $1.spent } }
    /// What is left to unlock with; negative when earned fell below spent and reserved.
    var unreserved: Int64 { earned - spent - reserved }

    /// The dashboard: only apps used for more than zero seconds, most used first.
    func dashboard(of child: UserID) -> Kindred_Gamification_V1_ChildDashboard {
        var dashboard = Kindred_Gamification_V1_ChildDashboard()
        dashboard.childUserID = child.description
        dashboard.availablePoints = max(0, unreserved)
        dashboard.totalEarnedPoints = earned
        dashboard.reservedPoints = reserved
        dashboard.spentPoints = spent
        dashboard.pointsPerLearningMinute = pointsPerLearningMinute
        dashboard.pointsPerRewardMinute = pointsPerRewardMinute
        let used = apps.filter { $0.seconds > 0 }.sorted { ($1.seconds, $0.app) < ($0.seconds, $1.app) }
        dashboard.learningApps = used.filter { $0.kind == .learning }.map { app in
            var entry = Kindred_Gamification_V1_DashboardApp()
            entry.appID = app.app
            entry.secondsUsed = app.seconds
            entry.pointsEarned = app.earnedMinutes * Int64(pointsPerLearningMinute)
            return entry
        }
        dashboard.rewardApps = used.filter { $0.kind == .reward }.map { app in
            var entry = Kindred_Gamification_V1_DashboardApp()
            entry.appID = app.app
            entry.secondsUsed = app.seconds
            let mine = unlocks.filter { $0.app == app.app }
            entry.pointsSpent = mine.reduce(0) { $0 + $1.spent }
            let running = mine.first(where: \.running)
            entry.unlocked = running != nil
            entry.unlockedUntil = running.map(\.endsAt)
            return entry
        }
        return dashboard
    }
}
