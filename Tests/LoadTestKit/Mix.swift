public import Foundation

/// The weight of each action of each persona: the standard mix, or one read from a JSON file
/// (`run --mix FILE`), `{"<persona>": {"<action>": weight, …}, …}`; a persona the file leaves out keeps its
/// standard actions. Tests/LoadTest/mix.json is the standard mix written out, and must stay equal to it.
public struct Mix: Sendable {
    public let actions: [Persona: WeightedMix<Persona.Action>]

    public static let standard = Mix(
        uncheckedWeights: [
            // A password sign-in costs identity an Argon2id hash (~180 ms of a core): 1 call in 2,001.
            .adult: [
                .getMe: 200, .listFriends: 400, .listFeed: 800, .sendMessage: 600, .signInWithPassword: 1,
            ],
            .screenTime: [.uploadUsage: 4, .getFriendLeaderboard: 3, .getMe: 1, .listFriends: 1],
            .grandparent: [
                .getHome: 4, .listCalendarEvents: 2, .listRegistryItems: 2, .addComment: 2, .setRsvp: 1,
                .purchaseRegistryItem: 1, .sendMessage: 1, .viewGallery: 2, .squishPhoto: 1, .viewArrival: 1,
                .squishArrival: 1,
            ],
            // A photo is an owner's rarest write (1 action in 24: one every 8 minutes at a 20 s think time);
            // the arrival is announced once, its later tries refused (ALREADY_ANNOUNCED).
            .babyOwner: [
                .getHome: 6, .listCalendarEvents: 2, .listRegistryItems: 2, .createCalendarEvent: 2,
                .createRegistryItem: 2, .addComment: 4, .sendMessage: 2, .viewGallery: 2, .uploadPhoto: 1,
                .announceArrival: 1,
            ],
            // Refused by the controls (PARENTAL_CONTROLS_MESSAGING_RESTRICTED): 1 teenager's call in 11.
            .teen: [
                .listFeed: 4, .sendMessage: 3, .messageStranger: 1, .joinEvent: 1, .getMe: 1, .listFriends: 1,
            ],
            .guardian: [
                .getMe: 1, .listFriends: 2, .listFeed: 4, .sendMessage: 3, .getParentalControlsStatus: 1,
                .listApprovalRequests: 1, .answerApproval: 1,
            ],
        ])

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Each persona's actions with their weights; a persona left out keeps its standard actions.
    public init(weights: [Persona: [Persona.Action: Int]]) throws(Invalid) {
        var actions = Self.standard.actions
        for (persona, personaWeights) in weights {
            guard let mix = Self.mix(personaWeights) else {
                throw Invalid(
                    description:
                        "The mix of \(persona.rawValue) needs weights of 0 or more, at least one above 0.")
            }
            actions[persona] = mix
        }
        self.actions = actions
    }

    private init(uncheckedWeights: [Persona: [Persona.Action: Int]]) {
        actions = uncheckedWeights.mapValues { Self.mix($0)! }
    }

    /// In a fixed order (by name), so that the same roll picks the same action in every run.
    private static func mix(_ weights: [Persona.Action: Int]) -> WeightedMix<Persona.Action>? {
        WeightedMix(
            weights.sorted { $0.key.rawValue < $1.key.rawValue }.map { (choice: $0.key, weight: $0.value) })
    }

    /// A mix file's JSON; a persona or action name it does not know is an error naming it.
    public init(json: Data) throws(Invalid) {
        let weights: [Persona: [Persona.Action: Int]]
        do {
            weights = try JSONDecoder().decode([Persona: [Persona.Action: Int]].self, from: json)
        } catch {
            throw Invalid(
                description: "The mix file is not {\"<persona>\": {\"<action>\": weight}} with known names "
                    + "(personas: \(Persona.allCases.map(\.rawValue).joined(separator: ", "))): \(error).")
        }
        try self.init(weights: weights)
    }

    /// The weights as a mix file writes them.
    public var weights: [Persona: [Persona.Action: Int]] {
        actions.mapValues { mix in
            Dictionary(mix.entries.map { ($0.choice, $0.weight) }, uniquingKeysWith: +)
        }
    }

    @inlinable
    public func choose(for persona: Persona, using generator: inout some RandomNumberGenerator)
        -> Persona.Action
    {
        actions[persona]!.choose(using: &generator)
    }
}
