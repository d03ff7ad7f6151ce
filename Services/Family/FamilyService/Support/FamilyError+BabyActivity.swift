import KindredRPC

extension FamilyError {
    /// A live activity stream whose client read too slowly: it ends, and the app resumes from its cursor.
    static let activityStreamBehind = refusal(
        .unavailable, "ACTIVITY_STREAM_BEHIND", "The connection fell behind. Reconnect to continue.")

    /// A resume cursor older than the activity feed keeps.
    static let activityCursorExpired = refusal(
        .failedPrecondition, "ACTIVITY_CURSOR_EXPIRED",
        "This activity is too old to continue from. Reload the home screen.")

    /// Suggestions follow the baby's stage, which needs the expected birth date.
    static let expectedBirthDateRequired = refusal(
        .failedPrecondition, "EXPECTED_BIRTH_DATE_REQUIRED", "Add the expected birth date to see suggestions."
    )
}
