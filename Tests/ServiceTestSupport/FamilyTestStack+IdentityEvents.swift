// Debug builds only (the services are testable there): see README.md.
#if DEBUG
@testable import FamilyService
import KindredAPI
import KindredMessages
import Testing

extension FamilyTestStack {
    /// Runs `body` on a stack whose family consumes identity's events, as every instance does.
    static func withIdentityEvents(_ body: (FamilyTestStack) async throws -> Void) async throws {
        try await with { stack in
            let consumer = IdentityEventHandler.consumer(context: stack.context)
            let consuming = Task { await consumer.run() }
            defer { consuming.cancel() }
            try await body(stack)
            consuming.cancel()
            await consuming.value
        }
    }

    /// `guardian` becomes `minor`'s guardian through the RPCs: an invitation, its mailed token, acceptance.
    func link(_ guardian: TestUser, to minor: TestUser) async throws -> Kindred_Family_V1_GuardianLink {
        _ = try await family.inviteGuardian(
            .init(requestID: "invite-\(guardian.username)", guardianEmail: guardian.email),
            options: minor.bearer)
        let token = try await familyMail.token(to: guardian.email)
        return try #require(
            try await family.acceptGuardianInvitation(.init(token: token), options: guardian.bearer).link)
    }
}
#endif
