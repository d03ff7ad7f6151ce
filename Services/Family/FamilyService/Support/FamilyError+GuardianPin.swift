import KindredAuth
import KindredRPC

/// The refusals of the guardian PIN, its sessions and the parental controls they guard.
extension FamilyError {
    /// A stranger asking about a minor, or a user id nobody has: NOT_FOUND, so the answer says nothing about
    /// whether the user exists or whom they are linked to.
    static let userNotFound = refusal(.notFound, "USER_NOT_FOUND", "No such user among the ones you may see.")

    /// The minor themself asking for what only their guardians may do.
    static let guardiansOnly = refusal(
        .permissionDenied, "GUARDIANS_ONLY", "Only the minor's guardians may do this.")

    static let pinNotSet = refusal(
        .failedPrecondition, "PIN_NOT_SET", "No guardian PIN is set yet. A guardian can set one.")

    static let pinResetPending = refusal(
        .failedPrecondition, "PIN_RESET_PENDING",
        "A PIN reset is pending: set the new PIN with the emailed link first.")

    static let controlsInactive = refusal(
        .failedPrecondition, "CONTROLS_INACTIVE", "Parental controls are off for this user.")

    /// A wrong PIN with tries left before the lock.
    static func pinIncorrect(attemptsRemaining: Int) -> RPCError {
        refusal(
            .permissionDenied, "PIN_INCORRECT", "That PIN is not right.",
            metadata: ["attempts_remaining": String(attemptsRemaining)])
    }

    /// Too many wrong PINs: RESOURCE_EXHAUSTED with the time the lock has left.
    static func pinLocked(retryAfter: Duration) -> RPCError {
        refusal(
            .resourceExhausted, "PIN_LOCKED", "Too many wrong PINs. Try again later, or reset the PIN.",
            retryAfter: retryAfter)
    }

    /// A new PIN refused for `reason`: INVALID_ARGUMENT with the reason and the field in `BadRequest`.
    static func invalidPin(_ reason: String, field: String, _ message: String) -> RPCError {
        var error = refusal(.invalidArgument, reason, message)
        error.details.append(.badRequest([ErrorDetail.FieldViolation(field: field, description: message)]))
        return error
    }

    /// A guardian opening a minor's settings without a session: the PIN guards reading them, not only changes.
    static let settingsSessionRequired = refusal(
        .permissionDenied, "GUARDIAN_SESSION_REQUIRED", "Enter the guardian PIN to open these settings.")

    /// Why a guardian session cannot be used: none given, not one of this guardian's for this minor (or
    /// its guardian no longer guards them), or past its 10 minutes.
    enum SessionProblem: Sendable, Equatable {
        case missing, invalid, expired
    }

    static func sessionRefused(_ problem: SessionProblem) -> RPCError {
        switch problem {
        case .missing:
            refusal(
                .permissionDenied, "GUARDIAN_SESSION_REQUIRED",
                "Enter the guardian PIN first: this needs a guardian session.")
        case .invalid:
            refusal(
                .permissionDenied, "GUARDIAN_SESSION_INVALID",
                "This guardian session is not valid for this minor. Enter the guardian PIN again.")
        case .expired:
            refusal(
                .permissionDenied, "GUARDIAN_SESSION_EXPIRED",
                "This guardian session has expired. Enter the guardian PIN again.")
        }
    }

    /// What a PIN reset link that cannot be used found; the reasons say LINK, as identity's do.
    enum LinkProblem: Sendable, Equatable {
        case unknown, expired, used
    }

    static func pinResetLinkRefused(_ problem: LinkProblem) -> RPCError {
        switch problem {
        case .expired:
            refusal(
                .failedPrecondition, "LINK_EXPIRED", "This PIN reset link has expired. Ask for a new one.")
        case .used:
            refusal(.failedPrecondition, "LINK_ALREADY_USED", "This PIN reset link has already been used.")
        case .unknown:
            refusal(
                .notFound, "LINK_UNKNOWN", "This PIN reset link is not valid. Check that it was copied whole."
            )
        }
    }

    /// Argon2id's queue is full: nothing was counted, and the same call works in a moment.
    static let pinCheckBusy = refusal(
        .unavailable, "PIN_CHECK_BUSY", "The service is busy. Please try again in a moment.",
        retryAfter: .seconds(1))
}

/// Runs a PIN hasher call: a full queue is `FamilyError.pinCheckBusy`; running out of memory stays an internal
/// error, logged.
func pinHashing<Value>(_ body: () async throws -> Value) async throws -> Value {
    do {
        return try await body()
    } catch PasswordHasherError.busy {
        throw FamilyError.pinCheckBusy
    }
}
