import KindredHandlers
import KindredMessages
import KindredRPC

/// `UploadUsage`, `GetUsageSettings` and `SetUsageSettings`.
extension Usage {
    /// Stores `request`'s sessions for `user`, all or nothing (see `UsageBatch` for what is refused, and
    /// `UsageStore.store` for how the daily totals stay exact). A retry changes nothing: every session it holds
    /// is already stored with the same updated_at.
    func upload(_ request: Kindred_Gamification_V1_UploadUsageRequest, of user: UserID) async throws
        -> Kindred_Gamification_V1_UploadUsageResponse
    {
        let batch = try UsageBatch(request, now: clock.now)
        let stored = try await UsageStore.store(batch.sessions, of: user, sealing: sessions, on: database)
        return Kindred_Gamification_V1_UploadUsageResponse(
            stored: Int32(stored), unchanged: Int32(batch.sessions.count - stored))
    }

    /// `user`'s settings, the defaults until they set any.
    func settings(of user: UserID) async throws -> UsageSettings {
        try await UsageSettingsStore.settings(of: user, on: database)
    }

    /// Replaces `user`'s settings; INVALID_ARGUMENT naming `settings.time_zone` when no zone has that name.
    func replaceSettings(_ request: Kindred_Gamification_V1_SetUsageSettingsRequest, of user: UserID)
        async throws -> UsageSettings
    {
        let settings = try UsageSettings(request)
        guard try await UsageSettingsStore.replace(settings, of: user, on: database) else {
            throw UsageError.unknownTimeZone
        }
        return settings
    }
}
