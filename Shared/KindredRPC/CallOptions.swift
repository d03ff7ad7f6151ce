/// Per-call settings: deadline, metadata, retry safety and compression.
public struct CallOptions: Sendable {
    /// How long the call may take; the configuration's default when nil and no `deadline` is set.
    public var timeout: Duration?
    /// An absolute deadline; the earlier of it and `timeout` wins.
    public var deadline: ContinuousClock.Instant?
    /// Custom metadata sent with the request, e.g. `authorization`.
    public var metadata: Metadata
    /// Whether the call may be sent again when the server is UNAVAILABLE.
    public var idempotent: Bool
    /// Whether to gzip the request message.
    public var compressRequest: Bool

    /// Creates options; every field has a default.
    public init(
        timeout: Duration? = nil, deadline: ContinuousClock.Instant? = nil, metadata: Metadata = Metadata(),
        idempotent: Bool = false, compressRequest: Bool = false
    ) {
        self.timeout = timeout
        self.deadline = deadline
        self.metadata = metadata
        self.idempotent = idempotent
        self.compressRequest = compressRequest
    }

    /// Copies the caller's `authorization` from a handler's request metadata, to call on its behalf.
    public mutating func forwardAuthorization(from requestMetadata: Metadata) {
        metadata.removeAll(forKey: "authorization")
        if let token = requestMetadata["authorization"] { metadata.add("authorization", token) }
    }

    /// The call's deadline: the earliest of the options' deadline, its timeout (or the default) and
    /// the deadline of the server call this task is handling.
    func effectiveDeadline(defaultTimeout: Duration) -> ContinuousClock.Instant {
        let now = ContinuousClock.now
        let own: ContinuousClock.Instant =
            switch (timeout, deadline) {
            case (let timeout?, let deadline?): min(now + timeout, deadline)
            case (let timeout?, nil): now + timeout
            case (nil, let deadline?): deadline
            case (nil, nil): now + defaultTimeout
            }
        return RPCDeadline.effective(own)
    }
}
