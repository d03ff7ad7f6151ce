import Foundation
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
    /// and notes what they cost; the statements a call and the PostgreSQL milliseconds a call.
    @discardableResult
    mutating func measure(_ rpc: String, _ call: (Int) async throws -> Void) async throws -> (
        statements: Double, milliseconds: Double
    ) {
        for number in 0..<Self.warmUp { try await call(number) }
        try await tally.reset()
        for number in Self.warmUp..<(Self.warmUp + calls) { try await call(number) }
        let statements = try await tally.statements()
        let perCall = Double(statements.map(\.calls).reduce(0, +)) / Double(calls)
        let milliseconds = statements.map(\.milliseconds).reduce(0, +) / Double(calls)
        lines.append("\(rpc): " + String(format: "%.2f statements, %.3f ms a call", perCall, milliseconds))
        for statement in statements {
            let text = statement.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            lines.append(
                String(
                    format: "    %5.2f a call, %.3f ms each: ", Double(statement.calls) / Double(calls),
                    statement.milliseconds / Double(max(statement.calls, 1))) + text.prefix(110))
        }
        return (perCall, milliseconds)
    }

    var text: String { lines.joined(separator: "\n") }
}
