import ArgumentParser
import Foundation
import KindredRPC

/// Where the four services listen, `identity=HOST:PORT,family=…,social=…,gamification=…`; a service left out
/// keeps the local stack's address. The local stack is what `deploy/local/up` wrote to `var/run/targets`: each
/// service's name (`kindred-family:50052`), which `var/run/hosts` resolves to every replica it started
/// (`KINDRED_REPLICAS`), so the run is balanced over them as the services' own clients are; without those
/// files, 127.0.0.1:50051…50054.
struct ServiceTargets: ExpressibleByArgument, Sendable {
    static let services = ["identity", "family", "social", "gamification"]
    /// What `deploy/local/up` writes, relative to the working directory (the checkout, as for `--seed-file`).
    static let localStackTargets = "var/run/targets"
    static let localStackHosts = "var/run/hosts"

    var addresses: [String: String] = [
        "identity": "127.0.0.1:50051", "family": "127.0.0.1:50052", "social": "127.0.0.1:50053",
        "gamification": "127.0.0.1:50054",
    ]
    /// Resolves the names of the local stack's replicas when its hosts file is there, else the system's way.
    var resolver: any NameResolver = HostsFileResolver.processDefault
    /// The targets run on this machine (the local stack's, or given on loopback): ServerUsage reads their CPU.
    var onThisMachine = false

    /// The local stack's targets and names when `deploy/local/up` left them, else the default addresses.
    init() {
        guard let written = try? String(contentsOfFile: Self.localStackTargets, encoding: .utf8),
            let stack = Self(argument: written.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        self = stack
        onThisMachine = true
        if FileManager.default.fileExists(atPath: Self.localStackHosts) {
            resolver = HostsFileResolver(path: Self.localStackHosts)
        }
    }

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

    /// A client configuration that resolves these targets.
    func configure(_ configuration: inout ClientConfiguration) {
        configuration.resolver = resolver
    }

    static var defaultValueDescription: String {
        "the local stack: var/run/targets (every replica deploy/local/up started), else 127.0.0.1:50051 to 50054"
    }
}
