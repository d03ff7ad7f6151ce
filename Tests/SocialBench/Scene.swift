import Foundation

/// What social_setup.py made: for each kind of sender, people with their access tokens and whom they send to.
struct Scene: Decodable {
    struct Sender: Decodable {
        let token: String
        let recipients: [String]
    }

    /// Adults sending to adults.
    let unrestricted: [Sender]
    /// Minors with messaging restricted, sending to people they follow (allowed).
    let restricted: [Sender]
    /// Minors with messaging restricted, sending to people they do not follow (refused).
    let refused: [Sender]

    static func load(_ path: String) throws -> Scene {
        try JSONDecoder().decode(Scene.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
