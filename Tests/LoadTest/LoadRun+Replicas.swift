import KindredRPC

extension LoadRun {
    /// Calls each replica answered, by service and address: what the run's clients (one per connection group
    /// and service, balanced over every address the target resolves to) counted where they sent.
    func replicaCounts(_ users: [VirtualUser]) async -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        for first in stride(from: 0, to: users.count, by: options.usersPerConnection) {
            let clients = users[first].clients
            let services = [
                ("identity", clients.identity), ("family", clients.family), ("social", clients.social),
                ("gamification", clients.gamification),
            ]
            for (service, client) in services {
                for (address, calls) in await client.callsPerAddress() {
                    counts[service, default: [:]][address, default: 0] += calls
                }
            }
        }
        return counts
    }
}
