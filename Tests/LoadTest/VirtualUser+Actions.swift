import LoadTestKit
import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import Synchronization

extension VirtualUser {
    typealias Identity = Kindred_Identity_V1_IdentityService
    typealias Social = Kindred_Social_V1_SocialService
    typealias Gamification = Kindred_Gamification_V1_GamificationService

    /// One action, timed from `due` (open loop) or from when it starts (closed loop), each call with the run's
    /// deadline from then. A user without an access token records its calls as failed, reason `NO_SESSION`
    /// (`timed`), and its failed resume on identity's Token.
    func perform(_ action: Persona.Action, due: ContinuousClock.Instant? = nil, iteration: Int) async {
        switch action {
        case .getMe:
            await timed(Identity.Method.getMe, from: due) { options in
                try await clients.identity.read(
                    Identity.Method.getMe, Kindred_Identity_V1_GetMeRequest(),
                    answer: Kindred_Identity_V1_GetMeResponse.self, options: options)
            }
        case .listFriends:
            await timed(Social.Method.listFriends, from: due) { options in
                try await clients.social.read(
                    Social.Method.listFriends,
                    Kindred_Social_V1_ListFriendsRequest(page: .init(pageSize: 20)),
                    answer: Kindred_Social_V1_ListFriendsResponse.self, options: options)
            }
        case .listFeed:
            await timed(Social.Method.listFeed, from: due) { options in
                try await clients.social.read(
                    Social.Method.listFeed, Kindred_Social_V1_ListFeedRequest(page: .init(pageSize: 20)),
                    answer: Kindred_Social_V1_ListFeedResponse.self, options: options)
            }
        case .sendMessage:
            await sendMessage(due: due, iteration: iteration)
        case .uploadUsage:
            await timed(Gamification.Method.uploadUsage, from: due) { options in
                _ = try await Gamification.Client(clients.gamification).uploadUsage(
                    .init(sessions: usageBatch()), options: options)
            }
        case .getFriendLeaderboard:
            await timed(Gamification.Method.getFriendLeaderboard, from: due) { options in
                _ = try await Gamification.Client(clients.gamification).getFriendLeaderboard(
                    .init(appID: Self.apps[iteration % Self.apps.count], period: .week), options: options)
            }
        case .signInWithPassword:
            await signInWithPassword(due: due)
        case .messageStranger:
            await messageStranger(due: due, iteration: iteration)
        case .joinEvent:
            await joinStrangersEvent(due: due, iteration: iteration)
        case .getParentalControlsStatus, .listApprovalRequests, .answerApproval:
            await lookAfterTeen(action, due: due)
        case .getHome, .listCalendarEvents, .listRegistryItems, .addComment, .setRsvp, .purchaseRegistryItem,
            .createCalendarEvent, .createRegistryItem, .viewGallery, .squishPhoto, .uploadPhoto, .viewArrival,
            .squishArrival, .announceArrival:
            await performOnProfile(action, due: due, iteration: iteration)
        }
    }

    /// A password sign-in (identity hashes the password: Argon2id, ~180 ms of a core), as an app that lost its
    /// session; the session it opens is not kept, the user goes on with its own.
    private func signInWithPassword(due: ContinuousClock.Instant?) async {
        await timed(Identity.Method.token, as: Self.passwordSignIn, from: due) { options in
            _ = try await Identity.Client(clients.identity).token(
                .init(
                    grantType: "password", username: shared.seed.username(index),
                    password: shared.seed.password), options: CallOptions(deadline: options.deadline))
        }
    }

    static let passwordSignIn = Identity.Method.token.rpcName + " (password sign-in)"

    /// A message to a friend, whose arrival on the friend's stream is measured (`Deliveries`).
    private func sendMessage(due: ContinuousClock.Instant?, iteration: Int) async {
        guard !friendIDs.isEmpty else { return }
        let friend = iteration % friendIDs.count
        await measuredWrite(on: [(shared.messages, [friendIndexes[friend]])]) { key in
            await timed(Social.Method.sendMessage, from: due) { options in
                _ = try await Social.Client(clients.social).sendMessage(
                    .init(
                        requestID: key, recipientUserID: friendIDs[friend], text: Deliveries.text(for: key)),
                    options: options)
            }
        }
    }

    /// A write whose text carries a new key (`write` gets it and reports whether it succeeded): on each kind
    /// of stream, each of its recipients whose stream was settled both before the write and after its answer
    /// must receive it.
    func measuredWrite(
        on streams: [(live: LiveStream, recipients: [Int])], _ write: (String) async -> Bool
    ) async {
        let key = Self.newKey()
        let settledBefore = streams.map { $0.live.settled($0.recipients) }
        for stream in streams { stream.live.deliveries.sending(key) }
        let succeeded = await write(key)
        for (stream, before) in zip(streams, settledBefore) {
            stream.live.deliveries.sent(
                key, succeeded: succeeded,
                recipients: before.intersection(stream.live.settled(stream.recipients)))
        }
    }

    /// A key no other write of this run carries: the run's own random prefix and a count. A random `UUID` and
    /// its text a write cost ~3% of the tool's samples at 1,000 calls/s.
    static func newKey() -> String {
        keyPrefix + String(writes.wrappingAdd(1, ordering: .relaxed).newValue, radix: 36)
    }

    private static let keyPrefix = String(UUID().uuidString.prefix(8)) + "-"
    private static let writes = Atomic<Int>(0)

    static let apps = ["instagram", "whatsapp", "youtube", "tiktok", "facebook"]

    /// The session in progress on the user's phone, as it stands now (`ScreenTimePhone`).
    private func usageBatch() -> [Kindred_Gamification_V1_UsageSession] {
        let session = phone.withLock { $0.upload(at: Int64(Date().timeIntervalSince1970)) }
        let (start, end) = (
            Date(timeIntervalSince1970: Double(session.start)),
            Date(timeIntervalSince1970: Double(session.end))
        )
        return [
            .init(
                clientSessionID: session.id, appID: session.app, startTime: start, endTime: end,
                updatedAt: end)
        ]
    }
}
