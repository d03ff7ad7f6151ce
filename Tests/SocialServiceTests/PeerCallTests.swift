import KindredRPC
@testable import SocialService
import Testing

/// What social's caller hears when a peer refuses or fails: never the peer's word for social's own mistakes.
@Suite struct PeerCallTests {
    private func heard(_ code: StatusCode, passingRefusals: Bool) async -> StatusCode? {
        do {
            try await PeerCall.run("family", passingRefusals: passingRefusals) {
                throw RPCError(code, "the peer's own words")
            } notFound: {
                SocialError.userNotFound
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
    func aCallWithSocialsOwnTokenNeverPassesThePeersRefusalOn(_ peer: StatusCode, _ caller: StatusCode) async
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
}
