import KindredTestSupport
@testable import FamilyService
import Testing

/// The time zone names are read once per process: calls that come while the read runs share it, and a failed
/// read is not kept.
@Suite struct TimeZoneNamesTests {
    struct Unreachable: Error {}

    @Test func callsDuringTheFirstReadShareIt() async throws {
        let reads = Locked(0)
        let names = TimeZoneNames {
            reads.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(50))
            return ["Europe/Paris", "UTC"]
        }
        let answers = try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for _ in 0..<8 { group.addTask { try await names.known() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: ["Europe/Paris", "UTC"], count: 8))
        #expect(try await names.known() == ["Europe/Paris", "UTC"])
        #expect(reads.value == 1)
    }

    @Test func aFailedReadIsTriedAgain() async throws {
        let reads = Locked(0)
        let names = TimeZoneNames {
            let attempt = reads.withLock { count in
                count += 1
                return count
            }
            if attempt == 1 { throw Unreachable() }
            return ["UTC"]
        }
        await #expect(throws: Unreachable.self) { try await names.known() }
        #expect(try await names.known() == ["UTC"])
        #expect(reads.value == 2)
    }
}
