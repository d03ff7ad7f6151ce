import LoadTestKit
import Foundation
import KindredAPI
import KindredMessages
import KindredRPC

extension VirtualUser {
    typealias Identity = Kindred_Identity_V1_IdentityService
    typealias Social = Kindred_Social_V1_SocialService
    typealias Gamification = Kindred_Gamification_V1_GamificationService

    /// One action, timed from `due` (open loop) or from when it starts (closed loop). A user that cannot get
    /// an access token records that failure (on identity's Token) and skips the action.
    func perform(_ action: Persona.Action, due: ContinuousClock.Instant? = nil, iteration: Int) async {
        guard let options = try? await options() else { return }
        switch action {
        case .getMe:
            await recorder.time(Identity.Method.getMe, from: due) {
                _ = try await Identity.Client(clients.identity).getMe(.init(), options: options)
            }
        case .listFriends:
            await recorder.time(Social.Method.listFriends, from: due) {
                _ = try await Social.Client(clients.social).listFriends(
                    .init(page: .init(pageSize: 20)), options: options)
            }
        case .listFeed:
            await recorder.time(Social.Method.listFeed, from: due) {
                _ = try await Social.Client(clients.social).listFeed(
                    .init(page: .init(pageSize: 20)), options: options)
            }
        case .sendMessage:
            await sendMessage(due: due, iteration: iteration, options: options)
        case .uploadUsage:
            await recorder.time(Gamification.Method.uploadUsage, from: due) {
                _ = try await Gamification.Client(clients.gamification).uploadUsage(
                    .init(sessions: usageBatch(iteration)), options: options)
            }
        case .getFriendLeaderboard:
            await recorder.time(Gamification.Method.getFriendLeaderboard, from: due) {
                _ = try await Gamification.Client(clients.gamification).getFriendLeaderboard(
                    .init(appID: Self.apps[iteration % Self.apps.count], period: .week), options: options)
            }
        }
    }

    /// A message to a friend, whose arrival on the friend's stream is measured (`Deliveries`).
    private func sendMessage(due: ContinuousClock.Instant?, iteration: Int, options: CallOptions) async {
        guard !friendIDs.isEmpty else { return }
        let friend = iteration % friendIDs.count
        let key = UUID().uuidString
        let settled = streams.isSettled(friendIndexes[friend])
        deliveries.sending(key)
        var succeeded = false
        await recorder.time(Social.Method.sendMessage, from: due) {
            _ = try await Social.Client(clients.social).sendMessage(
                .init(requestID: key, recipientUserID: friendIDs[friend], text: Deliveries.text(for: key)),
                options: options)
            succeeded = true
        }
        deliveries.sent(
            key, succeeded: succeeded, recipientSettled: settled && streams.isSettled(friendIndexes[friend]))
    }

    static let apps = ["instagram", "whatsapp", "youtube", "tiktok", "facebook"]

    /// Five one-minute sessions never sent before (the id carries the user, the iteration and the clock), ended
    /// in the last hour, as a phone uploads what it recorded since its last upload.
    private func usageBatch(_ iteration: Int) -> [Kindred_Gamification_V1_UsageSession] {
        let now = Int64(Date().timeIntervalSince1970)
        return (0..<5).map { session in
            let start = now - 3_600 + Int64(session) * 70
            return .init(
                clientSessionID: "lt-\(index)-\(now)-\(iteration)-\(session)",
                appID: Self.apps[(iteration + session) % Self.apps.count],
                startTime: .init(seconds: start, nanos: 0), endTime: .init(seconds: start + 60, nanos: 0),
                updatedAt: .init(seconds: start + 60, nanos: 0))
        }
    }
}
