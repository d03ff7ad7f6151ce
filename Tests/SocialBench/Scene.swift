import Foundation

/// What social_setup.py (or gamification_setup.py) made: for each kind of sender, people with their access
/// tokens and whom they send to.
struct Scene: Decodable, Sendable {
    struct Sender: Decodable, Sendable {
        let token: String
        let recipients: [String]
    }

    /// Someone whose messages are watched.
    struct Person: Decodable, Sendable {
        let id: String
        let token: String
    }

    /// Adults sending to adults.
    let unrestricted: [Sender]
    /// Minors with messaging restricted, sending to people they follow (allowed).
    let restricted: [Sender]
    /// Minors with messaging restricted, sending to people they do not follow (refused).
    let refused: [Sender]
    /// Adults who hold `WatchMessages` streams; the unrestricted senders message them.
    let watched: [Person]
    /// People whose devices upload usage to kindred-gamification (`upload`); absent from social's scene.
    let uploaders: [Person]?

    static func load(_ path: String) throws -> Scene {
        try JSONDecoder().decode(Scene.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
