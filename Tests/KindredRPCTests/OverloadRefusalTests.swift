import Testing

@testable import KindredRPC

/// The admission refusal made once per server: the same HEADERS the general path builds, used only for that
/// refusal on a call that set nothing of its own.
@Suite struct OverloadRefusalTests {
    private let refusal = OverloadRefusal(retryAfter: .milliseconds(300))

    /// The fields as `ServerCall` builds a trailers-only answer for any failure.
    private func built(_ error: RPCError) -> [String] {
        let fields =
            StatusTrailers.responseHeaders(encoding: .identity, metadata: Metadata())
            + StatusTrailers.fields(
                code: error.code, message: error.message, details: error.details, metadata: error.trailers)
        return fields.map { "\($0.name): \($0.value)" }
    }

    @Test func thePreparedAnswerIsWhatTheGeneralPathBuilds() throws {
        let headers = try #require(
            refusal.headers(for: .failed(refusal.error), responseHeaders: Metadata(), trailers: Metadata()))
        #expect(
            headers.fields.map { "\($0.name): \($0.value)" }
                == built(.serverOverloaded(retryAfter: .milliseconds(300))))
        #expect(headers.fields.contains { $0.name == "grpc-status-details-bin" })
        #expect(headers.last == nil)
    }

    @Test func aRefusalWithAnotherDelayIsBuiltForThatDelay() {
        #expect(refusal.error(retryAfter: .milliseconds(300)) == refusal.error)
        let other = refusal.error(retryAfter: .milliseconds(500))
        #expect(other.overloadRetryDelay == .milliseconds(500))
        #expect(
            refusal.headers(for: .failed(other), responseHeaders: Metadata(), trailers: Metadata()) == nil)
    }

    /// Another server's overload refusal may name no delay: the client's throttle still counts it as one
    /// (`RPCClient.throttled`), with no delay to ask for, and it is still an overload, never retried and passed up
    /// (`PeerCall`) with a delay of a second.
    @Test func anOverloadRefusalWithoutRetryInfoIsStillOne() {
        let bare = RPCError.overloadRefusalNamingNoDelay
        #expect(bare.isServerOverloaded)
        #expect(bare.serverOverloadDelay == nil)
        #expect(bare.overloadRetryDelay == .seconds(1))
        #expect(refusal.error.isServerOverloaded)
        #expect(!RPCError(.unavailable, RPCError.busyMessage).isServerOverloaded)
        #expect(!RPCError.throttledByClient(retryAfter: .milliseconds(300)).isServerOverloaded)
    }

    @Test(arguments: [
        (RPCError.serverOverloaded(retryAfter: .milliseconds(300)), Metadata(["x-shard": "7"]), Metadata()),
        (RPCError.serverOverloaded(retryAfter: .milliseconds(300)), Metadata(), Metadata(["x-shard": "7"])),
        (
            RPCError(.unavailable, "The service is busy. Please try again in a moment."), Metadata(),
            Metadata()
        ),
        (
            RPCError(
                .unavailable, "The service is busy. Please try again in a moment.",
                details: RPCError.serverOverloaded(retryAfter: .milliseconds(300)).details,
                trailers: Metadata(["x-shard": "7"])),
            Metadata(), Metadata()
        ),
    ])
    func anyOtherAnswerIsBuiltAsUsual(error: RPCError, responseHeaders: Metadata, trailers: Metadata) {
        #expect(
            refusal.headers(for: .failed(error), responseHeaders: responseHeaders, trailers: trailers) == nil)
    }

    @Test func successIsNeverTheRefusal() {
        #expect(refusal.headers(for: .ok, responseHeaders: Metadata(), trailers: Metadata()) == nil)
    }
}
