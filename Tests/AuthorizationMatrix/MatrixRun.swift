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
        let bystander = try await stack.register("bystander")
        let link = try await stack.social.base.link(guardian, to: minor)
        let maker = CastMaker(stack: stack, matrix: matrix)
        var cast = Cast(
            ownerID: owner.id, followerID: follower.id,
            minorID: minor.id, bystanderID: bystander.id, guardianLink: link.linkID,
            ownerUsername: owner.username)
        try await maker.profileWorld(into: &cast, owner: owner, follower: follower)
        try await maker.relations(
            into: &cast, owner: owner, follower: follower, stranger: stranger, guardian: guardian,
            minor: minor)
        cast.popularChallenge = try await maker.popularChallenge(by: admin)
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
        let wait = expected == .allowed ? MatrixClient.openStreamWait : MatrixClient.answerWait
        let answer = try await matrix.call(
            row.method, row.fields(cast), token: tokens[caller], streamWait: wait)
        let nothing =
            expected == .hidden || expected == .deniedAsForNothing
            ? try await matrix.call(
                row.method, row.fields(cast.nothing), token: tokens[caller], streamWait: wait)
            : nil
        return MatrixCell(
            method: row.method, caller: caller, expected: expected, answer: answer, answerForNothing: nothing,
            streaming: method.serverStreaming, allowedNotFound: row.allowedNotFound)
    }
}
