@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The minor's id of the PIN's and the controls' RPCs, parsed once by their handlers after the token: any case
/// of a UUID names the minor, anything else is INVALID_ARGUMENT naming the field, and without a token it is
/// UNAUTHENTICATED whatever the id.
@Suite struct GuardianPinIDWireTests {
    @Test func theMinorsIdIsParsedAtTheEdgeAfterTheToken() async throws {
        try await FamilyTestStack.with { stack in
            let (teen, mum, family) = (
                try await stack.register("teen_i", age: 15), try await stack.register("mum_i", age: 41),
                stack.family
            )
            try await PinRows.addControls(of: teen.id, at: stack.clock.now, on: stack.pool)
            try await PinRows.link(mum.id, to: teen.id, at: stack.clock.now, on: stack.pool)
            let shouted = teen.id.uppercased()
            _ = try await family.setGuardianPin(
                .init(minorUserID: shouted, pin: "2580", pinConfirmation: "2580"), options: mum.bearer)
            let session = try await family.verifyGuardianPin(
                .init(minorUserID: shouted, pin: "2580"), options: mum.bearer
            ).guardianSession
            let read = try await family.getParentalControls(
                .init(userID: shouted, guardianSession: session), options: mum.bearer)
            #expect(read.controls?.userID == teen.id)

            for (malformed, bearer) in [
                ("", mum.bearer), ("teen_i", mum.bearer), (shouted, FamilyTestStack.bearer(nil)),
            ] {
                let answers = [
                    await rpcError {
                        try await family.setGuardianPin(
                            .init(minorUserID: malformed, pin: "1357", pinConfirmation: "1357"),
                            options: bearer)
                    },
                    await rpcError {
                        try await family.verifyGuardianPin(
                            .init(minorUserID: malformed, pin: "2580"), options: bearer)
                    },
                    await rpcError {
                        try await family.requestGuardianPinReset(
                            .init(minorUserID: malformed), options: bearer)
                    },
                    await rpcError {
                        try await family.updateParentalControls(
                            .init(
                                minorUserID: malformed, guardianSession: session,
                                updateMask: ["content_filtering"],
                                controls: .init()),
                            options: bearer)
                    },
                ]
                // An empty user_id reads the caller's own controls, so the reads get a malformed one instead.
                let named = malformed.isEmpty ? "not-an-id" : malformed
                let reads = [
                    await rpcError {
                        try await family.getParentalControls(
                            .init(userID: named, guardianSession: session),
                            options: bearer)
                    },
                    await rpcError {
                        try await family.getParentalControlsStatus(
                            .init(userID: named), options: bearer)
                    },
                ]
                if malformed == shouted {
                    #expect((answers + reads).allSatisfy { $0?.code == .unauthenticated })
                } else {
                    #expect(
                        answers.allSatisfy {
                            $0?.code == .invalidArgument && $0?.badFields == ["minor_user_id"]
                        })
                    #expect(reads.allSatisfy { $0?.code == .invalidArgument && $0?.badFields == ["user_id"] })
                }
            }
        }
    }
}
