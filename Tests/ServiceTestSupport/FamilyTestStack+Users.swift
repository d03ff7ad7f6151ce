// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import Foundation
@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// A user the stack registered through identity's RPCs, email verified and signed in.
struct TestUser: Sendable {
    let id: String
    let username: String
    let email: String
    let password: String
    let accessToken: String
    let refreshToken: String

    /// Call options presenting this user's access token.
    var bearer: CallOptions { FamilyTestStack.bearer(accessToken) }
}

extension FamilyTestStack {
    static let password = "correct horse 1"

    /// Options carrying `token` as `authorization: Bearer`, with a deadline a stuck call cannot outlive.
    static func bearer(_ token: String?) -> CallOptions {
        var options = CallOptions(timeout: .seconds(10))
        if let token { options.metadata.add("authorization", "Bearer \(token)") }
        return options
    }

    /// Registers `username`, `age` years old today (UTC), verifies the email with the mailed token and signs
    /// in with the password grant.
    func register(_ username: String, age: Int, verified: Bool = true) async throws -> TestUser {
        let email = "\(username)@example.com"
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        // A month past the birthday, so the age holds whatever the day of the run.
        let born = utc.dateComponents(
            [.year, .month, .day],
            from: utc.date(byAdding: DateComponents(year: -age, month: -1), to: Date())!)
        let registered = try await identity.registerAccount(
            .init(
                requestID: "register-\(username)", email: email, username: username, password: Self.password,
                dateOfBirth: DateComponents(
                    year: born.year!, month: born.month!, day: born.day!)),
            options: Self.bearer(nil))
        if verified {
            let token = try await TestMailbox(pool).token(to: email)
            _ = try await identity.verifyEmail(.init(token: token), options: Self.bearer(nil))
        }
        let tokens = try await identity.token(
            .init(grantType: "password", username: username, password: Self.password),
            options: Self.bearer(nil))
        return TestUser(
            id: registered.account?.userID ?? "", username: username, email: email, password: Self.password,
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
    }

    /// Family's own access token (role service), as another service would present one.
    func serviceBearer() async throws -> CallOptions {
        try await context.identity.credentials.callOptions(timeout: .seconds(10))
    }

    /// What family's mail outbox holds.
    var familyMail: TestMailbox { TestMailbox(pool, schema: "family") }

    /// What identity's mail outbox holds.
    var identityMail: TestMailbox { TestMailbox(pool, schema: "identity") }
}
#endif
