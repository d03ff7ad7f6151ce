import FoundationEssentials
import KindredAPI
import KindredEvents
import KindredMessages
import KindredRPC
import KindredRuntime
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport

extension GamificationTestStack {
    /// A baby profile owned by `owner` with `followers`, written to family's tables; its id.
    func babyProfile(ownedBy owner: TestUser, followers: [TestUser] = []) async throws -> String {
        try await social.base.babyProfile(ownedBy: owner, followers: followers).description
    }

    /// Casts `vote` on `profile` as `user`.
    @discardableResult
    func vote(
        _ vote: Kindred_Gamification_V1_CastBabyVoteRequest.OneOf_Vote, on profile: String,
        as user: TestUser
    ) async throws -> Kindred_Gamification_V1_CastBabyVoteResponse {
        try await gamification.castBabyVote(.init(profileID: profile, vote: vote), options: user.bearer)
    }

    /// `GetBabyVoteResults` of `profile` with `options` (a bearer).
    func results(of profile: String, options: CallOptions) async throws
        -> Kindred_Gamification_V1_GetBabyVoteResultsResponse
    {
        try await gamification.getBabyVoteResults(.init(profileID: profile), options: options)
    }

    /// A signed-in administrator's bearer: `user` made an admin in identity's table, then signed in again.
    func adminBearer(_ user: TestUser) async throws -> CallOptions {
        try await pool.query("UPDATE identity.accounts SET role = 'admin' WHERE id = \(user.id)::uuid")
        let token = try await social.base.identity.token(
            .init(grantType: "password", username: user.username, password: user.password),
            options: FamilyTestStack.bearer(nil))
        return FamilyTestStack.bearer(token.accessToken)
    }

    /// Appends family's `baby.arrived` for `profile` to family's outbox, as the gallery's announcement does.
    func announceArrival(
        of profile: String, born: DateComponents, name: String = "", gender: Int32 = 0
    )
        async throws
    {
        let event = Kindred_Family_V1_Event(
            payload: .babyArrived(
                .init(
                    profileID: profile, name: name, birthDate: born,
                    announcedAt: clock.now,
                    gender: Kindred_Family_V1_BabyGender(rawValue: gender))))
        try await pool.transaction { tx in
            try await EventOutbox(schema: "family").append(
                type: "baby.arrived", payload: try event.serializedBytes(), sealedWith: TestDataKeys.cipher,
                in: tx)
        }
    }

    /// Runs `body` while gamification consumes family's events, as every instance does.
    func withFamilyEvents(_ body: () async throws -> Void) async throws {
        let credentials = try ServiceCredentials(
            clientID: "gamification", clientSecret: FamilyTestStack.gamificationSecret,
            identityTarget: social.base.identityTarget)
        let consumer = FamilyEventsConsumer.consumer(
            family: social.family, credentials: credentials, context: context)
        let consuming = Task { await consumer.run() }
        defer { consuming.cancel() }
        try await body()
        consuming.cancel()
        await consuming.value
    }

    /// Waits until the votes of `profile` are revealed.
    func awaitReveal(of profile: String) async throws {
        try await eventually("the votes of \(profile) revealed") {
            try await pool.query(
                """
                SELECT 1 FROM gamification.baby_games
                WHERE profile_id = \(profile)::uuid AND revealed_at IS NOT NULL
                """
            ).count == 1
        }
    }
}

/// A `Date` message.
func day(_ year: Int, _ month: Int, _ day: Int) -> DateComponents {
    DateComponents(year: year, month: month, day: day)
}
