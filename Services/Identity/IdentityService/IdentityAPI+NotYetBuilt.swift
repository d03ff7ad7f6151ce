import KindredAPI
import KindredMessages
import KindredRPC

// The RPCs not built yet: each answers UNIMPLEMENTED until its concern's file takes it over.
extension IdentityAPI {
    func registerAccount(_ request: Kindred_Identity_V1_RegisterAccountRequest, context: ServerContext) async throws -> Kindred_Identity_V1_RegisterAccountResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func verifyEmail(_ request: Kindred_Identity_V1_VerifyEmailRequest, context: ServerContext) async throws -> Kindred_Identity_V1_VerifyEmailResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func resendVerification(_ request: Kindred_Identity_V1_ResendVerificationRequest, context: ServerContext) async throws -> Kindred_Identity_V1_ResendVerificationResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func changeDateOfBirth(_ request: Kindred_Identity_V1_ChangeDateOfBirthRequest, context: ServerContext) async throws -> Kindred_Identity_V1_ChangeDateOfBirthResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func confirmDateOfBirthChange(_ request: Kindred_Identity_V1_ConfirmDateOfBirthChangeRequest, context: ServerContext) async throws -> Kindred_Identity_V1_ConfirmDateOfBirthChangeResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func getMe(_ request: Kindred_Identity_V1_GetMeRequest, context: ServerContext) async throws -> Kindred_Identity_V1_GetMeResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func getAccount(_ request: Kindred_Identity_V1_GetAccountRequest, context: ServerContext) async throws -> Kindred_Identity_V1_GetAccountResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func getAgeRange(_ request: Kindred_Identity_V1_GetAgeRangeRequest, context: ServerContext) async throws -> Kindred_Identity_V1_GetAgeRangeResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func searchUsers(_ request: Kindred_Identity_V1_SearchUsersRequest, context: ServerContext) async throws -> Kindred_Identity_V1_SearchUsersResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func deleteAccount(_ request: Kindred_Identity_V1_DeleteAccountRequest, context: ServerContext) async throws -> Kindred_Identity_V1_DeleteAccountResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func getComplianceReport(_ request: Kindred_Identity_V1_GetComplianceReportRequest, context: ServerContext) async throws -> Kindred_Identity_V1_GetComplianceReportResponse {
        throw RPCError(.unimplemented, "not built yet")
    }

    func watchEvents(_ request: Kindred_Identity_V1_WatchEventsRequest, responses: ResponseStreamWriter<Kindred_Identity_V1_Event>, context: ServerContext) async throws {
        throw RPCError(.unimplemented, "not built yet")
    }
}
