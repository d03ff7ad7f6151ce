import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER: replaced by the helper building this part; nothing here may land.
extension FamilyAPI {
    func listNotifications(_ request: Kindred_Family_V1_ListNotificationsRequest, context: ServerContext) async throws -> Kindred_Family_V1_ListNotificationsResponse {
        throw RPCError(.unimplemented, "ListNotifications is not built yet")
    }

    func markNotificationsRead(_ request: Kindred_Family_V1_MarkNotificationsReadRequest, context: ServerContext) async throws -> Kindred_Family_V1_MarkNotificationsReadResponse {
        throw RPCError(.unimplemented, "MarkNotificationsRead is not built yet")
    }

    func watchNotifications(_ request: Kindred_Family_V1_WatchNotificationsRequest, responses: ResponseStreamWriter<Kindred_Family_V1_Notification>, context: ServerContext) async throws {
        throw RPCError(.unimplemented, "WatchNotifications is not built yet")
    }

    func registerPushDevice(_ request: Kindred_Family_V1_RegisterPushDeviceRequest, context: ServerContext) async throws -> Kindred_Family_V1_RegisterPushDeviceResponse {
        throw RPCError(.unimplemented, "RegisterPushDevice is not built yet")
    }

    func unregisterPushDevice(_ request: Kindred_Family_V1_UnregisterPushDeviceRequest, context: ServerContext) async throws -> Kindred_Family_V1_UnregisterPushDeviceResponse {
        throw RPCError(.unimplemented, "UnregisterPushDevice is not built yet")
    }

    func getNotificationSettings(_ request: Kindred_Family_V1_GetNotificationSettingsRequest, context: ServerContext) async throws -> Kindred_Family_V1_GetNotificationSettingsResponse {
        throw RPCError(.unimplemented, "GetNotificationSettings is not built yet")
    }

    func updateNotificationSettings(_ request: Kindred_Family_V1_UpdateNotificationSettingsRequest, context: ServerContext) async throws -> Kindred_Family_V1_UpdateNotificationSettingsResponse {
        throw RPCError(.unimplemented, "UpdateNotificationSettings is not built yet")
    }
}
