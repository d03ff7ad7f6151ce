import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Identity's `IssueDeviceModeTokens`, as parent and child mode ask for it with family's own token.
extension IdentityDirectory {
    /// Tokens of `mode` for the account `userID`. `password` is parent mode's proof for identity to check;
    /// empty, family vouches for a proof it checked itself (a guardian PIN, of `guardianPinOf`, which the
    /// tokens then name in their `guardian_pin` claim), so no caller's empty password may ever reach this.
    ///
    /// Identity's answers about the caller reach them as identity gave them (`reachesTheCaller`),
    /// identity out of reach or out of time as UNAVAILABLE; any other refusal means family is not set up
    /// to ask (its client lacks `device_modes`) and is INTERNAL, with identity's answer in the log.
    func deviceModeTokens(
        for userID: UserID, mode: Kindred_Identity_V1_DeviceMode, password: String = "",
        guardianPinOf minor: UserID? = nil
    ) async throws -> Kindred_Family_V1_ModeTokens {
        let issued: Kindred_Identity_V1_TokenResponse
        do {
            issued = try await client.issueDeviceModeTokens(
                .init(
                    userID: userID.description, mode: mode, password: password,
                    guardianPinMinorUserID: minor?.description ?? ""),
                options: try await credentials.callOptions(timeout: .seconds(5)))
        } catch let refusal
            where Self.reachesTheCaller(refusal) && refusal.code != .unavailable
            && refusal.code != .deadlineExceeded
        {
            throw refusal
        } catch {
            throw Self.failure(error, asking: "IssueDeviceModeTokens")
        }
        return Kindred_Family_V1_ModeTokens(
            accessToken: issued.accessToken, expiresIn: issued.expiresIn, refreshToken: issued.refreshToken,
            scope: issued.scope, modeEndsAt: issued.sessionEndsAt)
    }

    /// Whether identity's refusal of a device-mode request is the caller's to see, unchanged: a wrong
    /// password (the same PERMISSION_DENIED `PASSWORD_INCORRECT` as a date-of-birth change gets), the sign-in
    /// lockout with its `RetryInfo`, an account deleted meanwhile, and identity out of reach or out of time.
    static func reachesTheCaller(_ refusal: RPCError) -> Bool {
        switch refusal.code {
        case .resourceExhausted, .notFound, .unavailable, .deadlineExceeded, .cancelled: true
        case .permissionDenied:
            refusal.details.contains { detail in
                if case .errorInfo(reason: "PASSWORD_INCORRECT", domain: "kindred.identity", _) = detail {
                    true
                } else {
                    false
                }
            }
        default: false
        }
    }
}
