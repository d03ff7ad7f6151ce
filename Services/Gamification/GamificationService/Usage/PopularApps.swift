import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `ListPopularApps` (anyone) and `SetPopularApps` (admins, checked by the handler): the apps the product
/// suggests, data an admin changes without a release.
struct PopularApps: Sendable {
    static let sizes = 1...50
    static let nameLength = 1...100

    let database: PostgresPool

    func list() async throws -> [Kindred_Gamification_V1_PopularApp] {
        try await PopularAppStore.all(on: database)
    }

    /// Replaces the list with `request`'s apps, in their order; INVALID_ARGUMENT naming every bad entry.
    func replace(_ request: Kindred_Gamification_V1_SetPopularAppsRequest) async throws
        -> [Kindred_Gamification_V1_PopularApp]
    {
        var violations = FieldViolations()
        if !Self.sizes.contains(request.apps.count) { violations.add("apps", "must hold 1 to 50 apps") }
        var seen: Set<String> = []
        for (index, app) in request.apps.enumerated() {
            violations.add("apps[\(index)].app_id", AppID.problem(app.appID))
            if !seen.insert(app.appID).inserted {
                violations.add("apps[\(index)].app_id", "appears earlier in the list")
            }
            if !Self.nameLength.contains(app.name.count) || app.name.allSatisfy(\.isWhitespace) {
                violations.add("apps[\(index)].name", "must be 1 to 100 characters, not only spaces")
            }
        }
        try violations.throwIfAny()
        try await PopularAppStore.replace(with: request.apps, on: database)
        return request.apps
    }
}
