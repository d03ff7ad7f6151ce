public import Logging
import Synchronization

/// What a handler knows about its call, and how it shapes the response's headers and trailers.
public struct ServerContext: Sendable {
    let call: ServerCall
    /// What the server made of the call's access token before the handler ran.
    let authentication: CallAuthentication

    /// The method being called.
    public var method: MethodDescriptor { call.route.descriptor }
    /// The client's custom metadata (reserved transport headers removed).
    public var requestMetadata: Metadata { call.head.metadata }
    /// When the client stops waiting, from `grpc-timeout`; nil without one.
    public var deadline: ContinuousClock.Instant? { call.deadline }
    /// The client's address, e.g. `ipv4:127.0.0.1:53422`.
    public var peer: String { call.connection.peer }
    /// The request id: the client's `x-request-id`, or one the server generated.
    public var requestID: String { call.requestID }

    /// Whether a request message received so far was compressed (read it on the handler's own task).
    public var requestWasCompressed: Bool { call.receivedCompressedMessage }

    /// A logger carrying this call's request id and method.
    public var logger: Logger {
        var logger = call.connection.core.logger
        logger[metadataKey: "request-id"] = "\(requestID)"
        logger[metadataKey: "rpc"] = "\(call.route.descriptor.path)"
        return logger
    }

    /// Adds metadata to the response headers (ignored once they are sent: with the first message, or for a
    /// server stream when its handler first suspends).
    public func addResponseHeader(_ key: String, _ value: String) {
        call.options.withLock { $0.headers.add(key, value) }
    }

    /// Adds binary metadata to the response headers (ignored once they are sent, as above).
    public func addResponseHeader(_ key: String, binary value: [UInt8]) {
        call.options.withLock { $0.headers.add(key, binary: value) }
    }

    /// Adds metadata to the trailers sent with the final status.
    public func addResponseTrailer(_ key: String, _ value: String) {
        call.options.withLock { $0.trailers.add(key, value) }
    }

    /// Adds binary metadata to the trailers sent with the final status.
    public func addResponseTrailer(_ key: String, binary value: [UInt8]) {
        call.options.withLock { $0.trailers.add(key, binary: value) }
    }

    /// Whether response messages are gzip-compressed; honoured when the client accepts gzip and the
    /// server allows compression. Set it before the response headers go out (see `addResponseHeader`).
    public var compressResponse: Bool {
        get { call.options.withLock { $0.compress } }
        nonmutating set { call.options.withLock { $0.compress = newValue } }
    }
}

/// Response shaping a handler may change from any thread.
struct ResponseOptions {
    var headers = Metadata()
    var trailers = Metadata()
    var compress = false
}
