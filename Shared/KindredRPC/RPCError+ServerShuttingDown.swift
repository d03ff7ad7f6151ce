extension RPCError {
    /// How a stream the server ends because it is shutting down finishes: UNAVAILABLE, which a client retries
    /// (against another instance, or this one once it is back), rather than OK, which reads as a normal end.
    public static let serverShuttingDown = RPCError(
        .unavailable, "The server is shutting down. Please reconnect.",
        details: [.errorInfo(reason: "SERVER_SHUTTING_DOWN", domain: "kindred.rpc", metadata: [:])])
}
