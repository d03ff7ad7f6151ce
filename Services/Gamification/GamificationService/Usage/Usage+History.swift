import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetUsageSummary` and `ListUsageSessions`: the caller's own figures, hidden apps included.
extension Usage {
    /// `user`'s totals over the period `request` asks for, in their zone, to the minute.
    func summary(_ request: Kindred_Gamification_V1_GetUsageSummaryRequest, of user: UserID) async throws
        -> Kindred_Gamification_V1_GetUsageSummaryResponse
    {
        var violations = FieldViolations()
        let period = UsagePeriodRequest(request.period, date: request.date, &violations)
        try violations.throwIfAny()
        let totals = try await UsageStore.totals(of: user, over: period, now: clock.now, on: database)
        let seconds = totals.apps.reduce(0) { $0 + $1.seconds }
        return Kindred_Gamification_V1_GetUsageSummaryResponse(
            firstDay: UsagePeriodRequest.proto(totals.firstDay),
            lastDay: UsagePeriodRequest.proto(totals.lastDay),
            totalMinutes: Int32(seconds / 60),
            apps: totals.apps.map {
                Kindred_Gamification_V1_AppUsage(appID: $0.appID, minutes: Int32($0.seconds / 60))
            },
            timeZone: totals.timeZone)
    }

    /// A page of `user`'s sessions.
    func sessions(_ request: Kindred_Gamification_V1_ListUsageSessionsRequest, of user: UserID) async throws
        -> Kindred_Gamification_V1_ListUsageSessionsResponse
    {
        let page = try UsageSessionPage(request)
        let found = try await UsageStore.sessions(of: user, page, sealing: self.sessions, on: database)
        let served = found.prefix(page.size)
        return Kindred_Gamification_V1_ListUsageSessionsResponse(
            sessions: served.map(\.proto),
            page: Kindred_Common_V1_PageResponse(
                nextPageToken: found.count > page.size ? page.nextToken(after: served.last!) : ""))
    }
}

extension UsageBatch.Session {
    var proto: Kindred_Gamification_V1_UsageSession {
        Kindred_Gamification_V1_UsageSession(
            clientSessionID: clientSessionID, appID: appID, startTime: start,
            endTime: end, updatedAt: updatedAt,
            deviceID: deviceID)
    }
}
