@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Parent mode proven with a guardian PIN, through the real servers: the minor's device and the guardian's
/// both leave child mode with it, a wrong PIN counts toward the PIN's lock and asks identity for nothing, and
/// a stranger's proof is refused like any stranger asking about a minor.
@Suite struct DeviceModePinTests {
    typealias Stack = FamilyTestStack
    static let pin = "2580"

    /// A 15-year-old whose controls are on, guarded by a parent who has set the PIN.
    static func family(_ stack: Stack) async throws -> (teen: TestUser, mum: TestUser) {
        let (teen, mum) = (
            try await stack.register("teen_m", age: 15), try await stack.register("mum_m", age: 41)
        )
        try await PinRows.addControls(of: teen.id, at: stack.clock.now, on: stack.pool)
        try await PinRows.link(mum.id, to: teen.id, at: stack.clock.now, on: stack.pool)
        _ = try await stack.family.setGuardianPin(
            .init(minorUserID: teen.id, pin: pin, pinConfirmation: pin), options: mum.bearer)
        return (teen, mum)
    }

    /// `user`'s device in child mode, then `pin` typed for `minor`: parent mode's answer.
    static func parentMode(_ user: TestUser, pin: String, minor: TestUser, _ stack: Stack) async throws
        -> Kindred_Family_V1_EnterParentModeResponse
    {
        let child = try #require(try await stack.family.enterChildMode(.init(), options: user.bearer).tokens)
        return try await stack.family.enterParentMode(
            .init(proof: .guardianPin(.init(minorUserID: minor.id, pin: pin))),
            options: Stack.bearer(child.accessToken))
    }

    /// The refresh chains identity holds for `user`, of every mode.
    static func chains(of user: TestUser, _ stack: Stack) async throws -> Int {
        try await stack.pool.query(
            "SELECT count(*)::int FROM identity.refresh_chains WHERE account_id = \(user.id)::uuid"
        )[0].decode(Int.self, column: 0)
    }

    @Test func theGuardianPinProvesParentModeOnTheMinorsDeviceAndOnTheGuardians() async throws {
        try await Stack.with { stack in
            let (teen, mum) = try await Self.family(stack)
            for user in [teen, mum] {
                let parent = try #require(
                    try await Self.parentMode(user, pin: Self.pin, minor: teen, stack).tokens)
                #expect(parent.scope == "full" && parent.modeEndsAt != nil)
                let me = try await stack.identity.getMe(.init(), options: Stack.bearer(parent.accessToken))
                #expect(me.account?.userID == user.id, "the tokens are the device's account's")
            }
        }
    }

    @Test func aWrongPinOpensNothingAndCountsTowardThePinsLock() async throws {
        try await Stack.with { stack in
            let (teen, _) = try await Self.family(stack)
            for remaining in ["2", "1"] {
                let wrong = await rpcError {
                    try await Self.parentMode(teen, pin: "1111", minor: teen, stack)
                }
                #expect(wrong?.code == .permissionDenied && wrong?.reason == "PIN_INCORRECT")
                #expect(wrong?.pinErrorInfo?.metadata["attempts_remaining"] == remaining)
            }
            let third = await rpcError { try await Self.parentMode(teen, pin: "1111", minor: teen, stack) }
            #expect(third?.code == .resourceExhausted && third?.reason == "PIN_LOCKED")
            #expect(third?.retryDelay == .seconds(15 * 60))
            let right = await rpcError { try await Self.parentMode(teen, pin: Self.pin, minor: teen, stack) }
            #expect(right?.reason == "PIN_LOCKED")
            #expect(try await Self.chains(of: teen, stack) == 1 + 4, "the sign-in's and child mode's only")
        }
    }

    @Test func aStrangersPinProofIsRefusedAsIfTheMinorWereUnknown() async throws {
        try await Stack.with { stack in
            let (teen, _) = try await Self.family(stack)
            let stranger = try await stack.register("stranger_m", age: 35)
            let refused = await rpcError {
                try await Self.parentMode(stranger, pin: Self.pin, minor: teen, stack)
            }
            #expect(refused?.code == .notFound && refused?.reason == "USER_NOT_FOUND")
            #expect(try await Self.chains(of: stranger, stack) == 2)
        }
    }
}
