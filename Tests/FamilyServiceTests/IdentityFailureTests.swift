@testable import FamilyService
import KindredRPC
import Testing

/// Identity's failures as family's caller hears them: never identity's words (nor the client's
/// "connect to 127.0.0.1:50051: …"), which stay the cause for family's access line.
@Suite struct IdentityFailureTests {
    @Test(arguments: [
        (RPCError(.unavailable, "connect to 127.0.0.1:50051: Connection refused"), StatusCode.unavailable),
        (RPCError(.deadlineExceeded, "the deadline passed"), .unavailable),
        (RPCError(.unauthenticated, "family's client secret is wrong"), .internal),
        (RPCError(.invalidArgument, "user_id is not a UUID"), .internal),
    ])
    func identityOutOfReachOrRefusingFamilyIsAPlainSentenceWithIdentitysAnswerAsTheCause(
        answer: RPCError, code: StatusCode
    ) {
        let heard = IdentityDirectory.failure(answer, asking: "GetAccount")
        #expect(heard.code == code)
        #expect(heard.message == (code == .internal ? RPCError.internalMessage : RPCError.unavailableMessage))
        #expect(heard.cause.map { String(describing: $0) }?.contains(answer.message) == true)
    }

    @Test(arguments: [StatusCode.notFound, .cancelled])
    func anAccountThatIsGoneOrACallItsCallerLeftIsAnsweredAsItIs(code: StatusCode) {
        let answer = RPCError(code, "as identity said")
        #expect(IdentityDirectory.failure(answer, asking: "GetAccount") == answer)
    }
}
