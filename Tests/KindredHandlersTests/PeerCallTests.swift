import KindredHandlers
import KindredRPC
import Testing

/// What a service's caller hears when a peer refuses or fails: never the peer's word for the service's own
/// mistakes.
@Suite struct PeerCallTests {
    private func heard(_ code: StatusCode, passingRefusals: Bool) async -> StatusCode? {
        do {
            try await PeerCall.run("family", passingRefusals: passingRefusals) {
                throw RPCError(code, "the peer's own words")
            } notFound: {
                RPCError(.notFound, "There is no such user.")
            }
            return nil
        } catch let error as RPCError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test(arguments: [
        (StatusCode.notFound, StatusCode.notFound), (.failedPrecondition, .internal),
        (.permissionDenied, .internal),
        (.unauthenticated, .internal), (.invalidArgument, .internal), (.unavailable, .unavailable),
        (.deadlineExceeded, .unavailable), (.resourceExhausted, .unavailable),
    ])
    func aCallWithTheServicesOwnTokenNeverPassesThePeersRefusalOn(_ peer: StatusCode, _ caller: StatusCode)
        async
    {
        #expect(await heard(peer, passingRefusals: false) == caller)
    }

    @Test(arguments: [
        (StatusCode.failedPrecondition, StatusCode.failedPrecondition),
        (.permissionDenied, .permissionDenied),
        (.resourceExhausted, .resourceExhausted), (.unauthenticated, .unauthenticated),
        (.invalidArgument, .internal), (.unavailable, .unavailable),
    ])
    func aCallWithTheUsersOwnTokenPassesTheRefusalsOfTheUserOn(_ peer: StatusCode, _ caller: StatusCode) async
    {
        #expect(await heard(peer, passingRefusals: true) == caller)
    }

    @Test func aPeerTooBusyToStartTheCallMakesThisOneTooBusyWithThePeersDelay() async {
        let busy = RPCError.serverOverloaded(retryAfter: .milliseconds(250))
        let heard = await #expect(throws: RPCError.self) {
            try await PeerCall.run("family") { throw busy }
        }
        #expect(heard?.overloadRetryDelay == .milliseconds(250))
        #expect(heard?.message == busy.message)
        // Any other UNAVAILABLE stays a plain one.
        let down = await #expect(throws: RPCError.self) {
            try await PeerCall.run("family") { throw RPCError(.unavailable, "connection refused") }
        }
        #expect(down?.code == .unavailable && down?.overloadRetryDelay == nil)
        // Another server's refusal that named no delay is still an overload, passed on with a second's.
        let bare = await #expect(throws: RPCError.self) {
            try await PeerCall.run("family") { throw RPCError.overloadRefusalNamingNoDelay }
        }
        #expect(bare == RPCError.serverOverloaded(retryAfter: .seconds(1)))
    }

    /// This service's own client refused to call the busy peer (`ClientThrottle`): to its caller that is the
    /// same overload, with the delay the peer last asked for.
    @Test func aCallThisServiceThrottledItselfIsTooBusyWithThePeersDelay() async {
        let heard = await #expect(throws: RPCError.self) {
            try await PeerCall.run("family") {
                throw RPCError.throttledByClient(retryAfter: .milliseconds(300))
            }
        }
        #expect(heard?.overloadRetryDelay == .milliseconds(300))
        #expect(heard == RPCError.serverOverloaded(retryAfter: .milliseconds(300)))
        // The log says the call never left this service.
        let cause = heard?.cause.map { "\($0)" } ?? "none"
        #expect(cause.hasPrefix("not sent to the family service"), "\(cause)")
    }
}
