import ArgumentParser

/// Where the four services listen, `identity=HOST:PORT,family=…,social=…,gamification=…`; a service left out
/// keeps the local stack's address (deploy/local/up: 127.0.0.1:50051…50054).
struct ServiceTargets: ExpressibleByArgument, Sendable {
    static let services = ["identity", "family", "social", "gamification"]

    var addresses: [String: String] = [
        "identity": "127.0.0.1:50051", "family": "127.0.0.1:50052", "social": "127.0.0.1:50053",
        "gamification": "127.0.0.1:50054",
    ]

    init() {}

    init?(argument: String) {
        for pair in argument.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, Self.services.contains(parts[0]), parts[1].contains(":") else {
                return nil
            }
            addresses[parts[0]] = parts[1]
        }
    }

    subscript(service: String) -> String { addresses[service]! }

    static var defaultValueDescription: String { "the local stack, 127.0.0.1:50051 to 50054" }
}
