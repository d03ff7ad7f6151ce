import KindredRPC

extension GamificationError {
    /// Another user's activity counters, for someone who shares no baby profile with them.
    static let activityCountersPrivate = refusal(
        .permissionDenied, "ACTIVITY_COUNTERS_PRIVATE",
        "Only the person they belong to and the people who share a baby profile with them can see these counters."
    )
}
