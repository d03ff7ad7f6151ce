import KindredRPC

extension GamificationError {
    /// Another user's activity counters: only their owner reads them.
    static let activityCountersPrivate = refusal(
        .permissionDenied, "ACTIVITY_COUNTERS_PRIVATE",
        "Only the person they belong to can see these counters.")
}
