import Foundation
@testable import IdentityService
import KindredAuth
import KindredRPC
@testable import ServiceTestSupport
import Testing

/// The cast on a running stack and a token for every kind of caller; runs a row's cells at once.
struct MatrixRun: Sendable {
    let matrix: MatrixServer
    let maker: CastMaker
    let cast: Cast
    let owner: TestUser
    let follower: TestUser
    let tokens: [CallerKind: String]

    static func start(_ stack: GamificationTestStack, _ matrix: MatrixServer) async throws -> MatrixRun {
        let owner = try await stack.register("owner")
        let follower = try await stack.register("follower")
        let stranger = try await stack.register("stranger")
        let minor = try await stack.social.register("minor", age: 15)
        let guardian = try await stack.register("guardian", age: 40)
        let admin = try await adminAccount(stack)
        let link = try await stack.social.base.link(guardian, to: minor)
        let maker = CastMaker(stack: stack, matrix: matrix)
        var cast = Cast(
            ownerID: owner.id, followerID: follower.id, strangerID: stranger.id, guardianID: guardian.id,
            minorID: minor.id, guardianLink: link.linkID, ownerUsername: owner.username)
        try await maker.profileWorld(into: &cast, owner: owner, follower: follower)
        cast.conversation = try await maker.id(
            "SocialService/SendMessage",
            ["request_id": newRequestID, "recipient_user_id": .text(follower.id), "text": "Hi"], owner,
            at: [1, 2])
        cast.socialEvent = try await maker.id(
            "SocialService/CreateEvent",
            ["request_id": newRequestID, "title": "Tea", "starts_at.seconds": inAMonth, "visibility": 2],
            owner)
        cast.challenge = try await maker.id(
            "GamificationService/CreateChallenge",
            [
                "request_id": newRequestID, "name": "Less video", "app_id": "youtube",
                "daily_limit_minutes": 60,
                "duration_days": 7, "difficulty": 1,
            ], owner)
        cast.approval = try await maker.id(
            "FamilyService/CreateApprovalRequest",
            ["minor_user_id": .text(minor.id), "kind": 1, "subject_id": newRequestID, "summary": "A picnic"],
            minor)
        cast.acceptRequest = try await maker.id(
            "SocialService/SendFriendRequest", ["to.user_id": .text(owner.id)], follower)
        cast.declineRequest = try await maker.id(
            "SocialService/SendFriendRequest", ["to.user_id": .text(owner.id)], guardian)
        cast.cancelRequest = try await maker.id(
            "SocialService/SendFriendRequest", ["to.user_id": .text(stranger.id)], owner)

        let store = SigningKeyStore(database: stack.pool, secret: FamilyTestStack.identitySecret)
        let signer = try #require(try await store.signer(unless: nil).key)
        let crafted = MatrixTokens(signer: signer, owner: owner.accessToken, ownerID: owner.id)
        let service = try #require(try await stack.social.base.serviceBearer().metadata["authorization"])
        let tokens: [CallerKind: String] = [
            .malformed: crafted.malformed, .tampered: crafted.tampered, .algNone: crafted.algNone,
            .expired: crafted.expired, .unknownKey: crafted.unknownKey, .childMode: crafted.childMode,
            .stranger: stranger.accessToken, .follower: follower.accessToken, .owner: owner.accessToken,
            .guardian: guardian.accessToken, .service: String(service.dropFirst("Bearer ".count)),
            .admin: admin,
        ]
        return MatrixRun(
            matrix: matrix, maker: maker, cast: cast, owner: owner, follower: follower, tokens: tokens)
    }

    /// An account made an admin in identity's table (no RPC grants the role), signed in with its password.
    private static func adminAccount(_ stack: GamificationTestStack) async throws -> String {
        let admin = try await stack.register("admin")
        try await stack.pool.query("UPDATE identity.accounts SET role = 'admin' WHERE id = \(admin.id)::uuid")
        let signedIn = try await stack.social.base.identity.token(
            .init(grantType: "password", username: admin.username, password: admin.password),
            options: FamilyTestStack.bearer(nil))
        return signedIn.accessToken
    }

    /// Every caller's cell of `row`, called at once (a stream that admits its caller stays open until a short
    /// deadline, so a row costs at most that).
    func cells(of row: MatrixRow, method: ProtoDescriptors.Method) async throws -> [MatrixCell] {
        try await withThrowingTaskGroup(of: MatrixCell.self) { group in
            for caller in CallerKind.allCases {
                group.addTask { try await cell(of: row, method: method, caller: caller) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    private func cell(of row: MatrixRow, method: ProtoDescriptors.Method, caller: CallerKind) async throws
        -> MatrixCell
    {
        var cast = cast
        if row.fresh && !caller.isUnauthenticated {
            try await maker.profileWorld(into: &cast, owner: owner, follower: follower)
        }
        let expected = row.expectation(for: caller, readOnly: method.readOnly)
        let answer = try await matrix.call(row.method, row.fields(cast), token: tokens[caller])
        let nothing =
            expected == .hidden
            ? try await matrix.call(row.method, row.fields(cast.nothing), token: tokens[caller]) : nil
        return MatrixCell(
            method: row.method, caller: caller, expected: expected, answer: answer, answerForNothing: nothing,
            streaming: method.serverStreaming, allowedNotFound: row.allowedNotFound)
    }
}
