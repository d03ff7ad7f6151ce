import Foundation
@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Parent and child mode on a family device, through real identity and family servers: a child-mode token
/// from family is refused by every mutating call of another service while reads work, and only parent mode's
/// proof gives full tokens back.
@Suite struct DeviceModeTests {
    typealias Stack = FamilyTestStack

    @Test func aChildModeTokenIsRefusedOnIdentitysMutatingCallsUntilParentModeIsProven() async throws {
        try await Stack.with { stack in
            let dad = try await stack.register("dad_r", age: 41)
            let child = try #require(
                try await stack.family.enterChildMode(.init(), options: dad.bearer).tokens)
            #expect(child.scope == "child_readonly" && child.modeEndsAt == nil)
            try await Self.expectReadOnly(child.accessToken, of: dad, stack)

            let refreshed = try await stack.identity.token(
                .init(grantType: "refresh_token", refreshToken: child.refreshToken),
                options: Stack.bearer(nil))
            #expect(refreshed.scope == "child_readonly")
            try await Self.expectReadOnly(refreshed.accessToken, of: dad, stack)

            let parent = try #require(
                try await stack.family.enterParentMode(
                    .init(proof: .password(dad.password)), options: Stack.bearer(refreshed.accessToken)
                ).tokens)
            #expect(parent.scope == "full")
            let now = Date().timeIntervalSince1970
            #expect((now + 1_790...now + 1_800).contains(parent.modeEndsAt?.timeIntervalSince1970 ?? 0))
            let signedOut = try await stack.identity.signOutEverywhere(
                .init(), options: Stack.bearer(parent.accessToken))
            #expect(signedOut.revokedRefreshTokens >= 1, "full tokens change things again")
        }
    }

    /// `token` reads identity and family but changes nothing at either: CHILD_MODE_READ_ONLY from the shared
    /// layer of each service.
    static func expectReadOnly(_ token: String, of user: TestUser, _ stack: Stack) async throws {
        let bearer = Stack.bearer(token)
        let me = try await stack.identity.getMe(.init(), options: bearer)
        #expect(me.account?.userID == user.id)
        let controls = try await stack.family.getParentalControls(.init(userID: user.id), options: bearer)
        #expect(controls.controls != nil)

        let refusals = [
            await rpcError { try await stack.identity.signOutEverywhere(.init(), options: bearer) },
            await rpcError {
                try await stack.identity.changeDateOfBirth(
                    .init(password: user.password, dateOfBirth: .init(year: 1980, month: 1, day: 1)),
                    options: bearer)
            },
            await rpcError { try await stack.family.enterChildMode(.init(), options: bearer) },
            await rpcError { try await stack.family.updateProfile(.init(), options: bearer) },
        ]
        for refusal in refusals {
            #expect(refusal?.code == .permissionDenied)
            #expect(refusal?.reason == "CHILD_MODE_READ_ONLY")
        }
    }

    @Test func aWrongParentModePasswordGetsIdentitysAnswerAndCountsTowardItsLockout() async throws {
        try await Stack.with { stack in
            let mia = try await stack.register("mia_r", age: 15)
            let wrongForChange = await rpcError {
                try await stack.identity.changeDateOfBirth(
                    .init(password: "not it 1", dateOfBirth: .init(year: 2010, month: 1, day: 1)),
                    options: mia.bearer)
            }
            let child = try #require(
                try await stack.family.enterChildMode(.init(), options: mia.bearer).tokens)
            let childBearer = Stack.bearer(child.accessToken)
            for _ in 1..<5 {
                let wrong = await rpcError {
                    try await stack.family.enterParentMode(
                        .init(proof: .password("not it 1")), options: childBearer)
                }
                #expect(wrong == wrongForChange)
                #expect(wrong?.code == .permissionDenied && wrong?.reason == "PASSWORD_INCORRECT")
            }
            let locked = await rpcError {
                try await stack.family.enterParentMode(
                    .init(proof: .password(mia.password)), options: childBearer)
            }
            #expect(locked?.code == .resourceExhausted)
            #expect(locked?.reason == "SIGN_IN_LOCKED")
            #expect((locked?.retryDelay ?? .zero) > .zero)
        }
    }

    @Test func parentModeNeedsAProofAndAnEmptyPasswordIsNone() async throws {
        try await Stack.with { stack in
            let dad = try await stack.register("dad_r", age: 41)
            let child = try #require(
                try await stack.family.enterChildMode(.init(), options: dad.bearer).tokens)
            let proofs: [(Kindred_Family_V1_EnterParentModeRequest.OneOf_Proof?, String)] = [
                (nil, "proof"), (.password(""), "password"),
            ]
            for (proof, field) in proofs {
                let refused = await rpcError {
                    try await stack.family.enterParentMode(
                        .init(proof: proof), options: Stack.bearer(child.accessToken))
                }
                #expect(refused?.code == .invalidArgument)
                #expect(refused?.fieldViolations == [field])
            }
        }
    }

    @Test func aServiceHasNoDeviceToSwitch() async throws {
        try await Stack.with { stack in
            let refused = await rpcError {
                try await stack.family.enterChildMode(.init(), options: try await stack.serviceBearer())
            }
            #expect(refused?.code == .permissionDenied)
        }
    }

    static let identityAnswers: [(RPCError, Bool)] = [
        (refusal(.permissionDenied, "PASSWORD_INCORRECT"), true),
        (refusal(.resourceExhausted, "SIGN_IN_LOCKED"), true),
        (refusal(.notFound, "ACCOUNT_NOT_FOUND"), true),
        (RPCError(.unavailable, "identity is down"), true),
        (RPCError(.deadlineExceeded, "too slow"), true),
        (refusal(.permissionDenied, "DEVICE_MODES_NOT_ALLOWED"), false),
        (RPCError(.permissionDenied, "role not allowed"), false),
        (RPCError(.unauthenticated, "family's own token refused"), false),
        (RPCError(.invalidArgument, "user_id"), false),
        (RPCError(.internal, "Internal error"), false),
    ]

    @Test(arguments: identityAnswers)
    func onlyIdentitysAnswersAboutTheCallerReachTheCaller(answer: RPCError, reaches: Bool) {
        #expect(IdentityDirectory.reachesTheCaller(answer) == reaches)
    }

    static func refusal(_ code: StatusCode, _ reason: String) -> RPCError {
        RPCError(
            code, reason, details: [.errorInfo(reason: reason, domain: "kindred.identity", metadata: [:])])
    }
}

extension RPCError {
    /// The fields a `BadRequest` names, in order.
    fileprivate var fieldViolations: [String] {
        details.flatMap { detail -> [String] in
            if case .badRequest(let violations) = detail { violations.map(\.field) } else { [] }
        }
    }
}
