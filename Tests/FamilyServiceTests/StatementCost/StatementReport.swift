import Foundation
@testable import ServiceTestSupport
import Testing

/// Per RPC: the statements and PostgreSQL time of `calls` calls, measured by a `StatementTally`.
struct StatementReport {
    /// Calls made before each measurement, so that first-use costs (prepares, caches) stay out of it.
    static let warmUp = 2

    let calls: Int
    let tally: StatementTally
    private(set) var lines: [String] = []

    init(calls: Int, tally: StatementTally) {
        self.calls = calls
        self.tally = tally
    }

    /// Runs `call` for the warm-up, then `calls` times measured (its argument counts on from the warm-up's),
    /// notes what they cost, and expects at most `budget` statements a call of those run at least every other
    /// call (the background's, the sequencers' and the feed tails', run far less often, are left out). The
    /// sequencers' checks for unsequenced rows and their locks run on their own clock, not per call, so on a
    /// machine slow enough for calls to take milliseconds they pass the every-other-call line: they never count.
    mutating func measure(_ rpc: String, budget: Int, _ call: (Int) async throws -> Void) async throws {
        for number in 0..<Self.warmUp { try await call(number) }
        try await tally.reset()
        for number in Self.warmUp..<(Self.warmUp + calls) { try await call(number) }
        let statements = try await tally.statements()
        let perCall = Double(statements.map(\.calls).reduce(0, +)) / Double(calls)
        let milliseconds = statements.map(\.milliseconds).reduce(0, +) / Double(calls)
        lines.append("\(rpc): " + String(format: "%.2f statements, %.3f ms a call", perCall, milliseconds))
        let everyCall = statements.filter { 2 * $0.calls >= calls && !$0.isSequencerWork }.map(\.calls)
            .reduce(0, +)
        #expect(
            Double(everyCall) / Double(calls) < Double(budget) + 0.1,
            "\(rpc) runs \(everyCall) statements in \(calls) calls, over its budget of \(budget) a call")
        for statement in statements {
            let text = statement.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            lines.append(
                String(
                    format: "    %5.2f a call, %.3f ms each: ", Double(statement.calls) / Double(calls),
                    statement.milliseconds / Double(max(statement.calls, 1))) + text.prefix(110))
        }
    }

    var text: String { lines.joined(separator: "\n") }
}
