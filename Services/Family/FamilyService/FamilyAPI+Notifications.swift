import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// The caller's in-app inbox, push devices and guardian notification settings. Users (and admins) only:
/// a service has no inbox.
extension FamilyAPI {
    func listNotifications(_ request: Kindred_Family_V1_ListNotificationsRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_ListNotificationsResponse
    {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        return try await notifications.list(for: try caller.account(), page: try InboxPage(request))
    }

    func markNotificationsRead(
        _ request: Kindred_Family_V1_MarkNotificationsReadRequest, context: ServerContext
    )
        async throws -> Kindred_Family_V1_MarkNotificationsReadResponse
    {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        let recipient = try caller.account()
        let ids = try Notifications.marked(request.notificationIds)
        return Kindred_Family_V1_MarkNotificationsReadResponse(
            unreadCount: try await notifications.markRead(ids, for: recipient))
    }

    func watchNotifications(
        _ request: Kindred_Family_V1_WatchNotificationsRequest,
        responses: ResponseStreamWriter<Kindred_Family_V1_Notification>, context: ServerContext
    ) async throws {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        let recipient = try caller.account()
        let after = try Notifications.resumePoint(request.afterNotificationID)
        try await notifications.watch(for: recipient, after: after) { notification in
            try await responses.write(notification)
        }
        // The watch returns only once the bell closed its streams, as the process drains.
        throw RPCError.serverShuttingDown
    }

    func registerPushDevice(_ request: Kindred_Family_V1_RegisterPushDeviceRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_RegisterPushDeviceResponse
    {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        return Kindred_Family_V1_RegisterPushDeviceResponse(
            device: try await notifications.registerDevice(
                for: try caller.account(), platform: request.platform, token: request.deviceToken,
                pushEnabled: request.pushEnabled))
    }

    func unregisterPushDevice(
        _ request: Kindred_Family_V1_UnregisterPushDeviceRequest, context: ServerContext
    )
        async throws -> Kindred_Family_V1_UnregisterPushDeviceResponse
    {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        let user = try caller.account()
        try await notifications.unregisterDevice(
            try FieldViolations.id("device_id", request.deviceID), for: user)
        return Kindred_Family_V1_UnregisterPushDeviceResponse()
    }

    func getNotificationSettings(
        _ request: Kindred_Family_V1_GetNotificationSettingsRequest, context: ServerContext
    )
        async throws -> Kindred_Family_V1_GetNotificationSettingsResponse
    {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        return Kindred_Family_V1_GetNotificationSettingsResponse(
            settings: try await notifications.settings(of: try caller.account()))
    }

    func updateNotificationSettings(
        _ request: Kindred_Family_V1_UpdateNotificationSettingsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateNotificationSettingsResponse {
        let caller = try context.authenticatedCaller(as: .user, .admin)
        return Kindred_Family_V1_UpdateNotificationSettingsResponse(
            settings: try await notifications.updateSettings(request.settings, of: try caller.account()))
    }
}
