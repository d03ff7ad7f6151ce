import KindredRPC

/// The refusals of the account rules.
extension IdentityError {
    /// Under 13 at registration, or a date-of-birth change that would make the account under 13.
    static let ageBelowMinimum = refusal(
        .failedPrecondition, "AGE_BELOW_MINIMUM",
        "You must be at least 13 years old to have a Kindred account.", metadata: ["minimum_age": "13"])

    static let usernameTaken = refusal(
        .alreadyExists, "USERNAME_TAKEN", "That username is taken. Please choose another one.",
        metadata: ["field": "username"])

    static let emailTaken = refusal(
        .alreadyExists, "EMAIL_TAKEN", "An account with that email address already exists. Sign in instead.",
        metadata: ["field": "email"])

    /// A request id already used by a registration with other details.
    static let requestIDReused = refusal(
        .invalidArgument, "REQUEST_ID_REUSED",
        "This request_id was already used for a different registration; use a new one.")

    /// The password given again to confirm a sensitive change is not the account's.
    static let passwordIncorrect = refusal(
        .permissionDenied, "PASSWORD_INCORRECT", "The password is incorrect.")

    /// The caller's token names an account that no longer exists, or a caller without one (a service).
    static let noAccount = refusal(.notFound, "ACCOUNT_NOT_FOUND", "There is no account for this caller.")

    static let accountNotFound = refusal(.notFound, "ACCOUNT_NOT_FOUND", "No such account.")

    /// A stranger asking for someone's age band.
    static let ageRangeNotVisible = refusal(
        .permissionDenied, "AGE_RANGE_NOT_VISIBLE",
        "Only the user, admins and services may read a user's age range.")

    /// Anyone but an admin asking for the compliance report.
    static let adminOnly = refusal(
        .permissionDenied, "ADMIN_ONLY", "Only admins may read the compliance report.")
}
