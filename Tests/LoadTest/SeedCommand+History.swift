import Foundation
import KindredPostgres
import LoadTestKit

extension SeedCommand {
    /// Conversations and usage history (`HistorySeedWriter`), per `--batch` users after the users themselves,
    /// resumable like them; a line after every batch says how far it got and its rate.
    func seedHistory(_ file: inout SeedFile, writer: HistorySeedWriter) async throws {
        guard let resumedAt = file.seededHistory else {
            say(
                "\(seedFile) was made before the seed wrote conversations and usage history, so they are left "
                    + "out (its stack may hold a run's messages): seed with a new --seed-file to have them.")
            return
        }
        guard resumedAt < file.users else { return }
        let clock = ContinuousClock()
        let started = clock.now
        let messagesPerUser = writer.conversations.inboxLength
        var done = resumedAt
        while done < file.users {
            let range = done..<min(file.users, done + batch)
            do {
                try await writer.write(range)
            } catch {
                throw ToolError(
                    "Seeding the history of users \(range.lowerBound)-\(range.upperBound - 1) failed "
                        + "(\(oneLine(error))); \(done) of \(file.users) have theirs: check social and "
                        + "gamification are migrated and --databases, then run the same command to resume.")
            }
            done = range.upperBound
            file.seededHistory = done
            try file.save(seedFile)
            let seconds = (clock.now - started).inSeconds
            say(
                "seeded the history of \(done)/\(file.users) users (conversations, messages, usage), "
                    + String(
                        format: "%.1f s, %.0f messages/s", seconds,
                        Double((done - resumedAt) * messagesPerUser) / seconds))
        }
        // Statistics for the planner now, as autovacuum would only later (see analyzeUsers).
        _ = try await writer.social.query(
            "ANALYZE social.conversations, social.messages, social.message_inboxes")
        _ = try await writer.gamification.query(
            "ANALYZE gamification.usage_settings, gamification.usage_sessions, gamification.usage_daily")
    }
}

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
