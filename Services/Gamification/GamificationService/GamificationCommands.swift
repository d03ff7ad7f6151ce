import KindredRuntime

/// `kindred-gamification keys rotate-data`.
enum GamificationCommands {
    static let all = [rotateData]

    /// Seals every usage session, day of usage counts, revealed baby game and event payload under the first data key; safe while instances serve.
    static let rotateData = ServiceCommand.rotateData(service: "gamification") { environment, cipher in
        [
            UsageSessionRotation(database: environment.database, sessions: UsageSessions(cipher: cipher)),
            UsageCoverageRotation(database: environment.database, sessions: UsageSessions(cipher: cipher)),
            BabyGameRotation(database: environment.database, seals: BabyGameSeals(cipher: cipher)),
            SealedEventOutbox(GamificationEvents.outbox, cipher: cipher, on: environment.database),
        ]
    }
}
