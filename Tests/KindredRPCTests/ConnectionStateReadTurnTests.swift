import Testing
@testable import KindredRPC

/// A connection's share of a loop turn without sockets: the counts of its reads in, the next step out.
@Suite struct ConnectionStateReadTurnTests {
    typealias Step = ConnectionState.ReadStep

    static let limits = ConnectionState.Limits(
        handshakeTimeout: .seconds(5), idleTimeout: .seconds(300), keepaliveInterval: .seconds(120),
        keepaliveTimeout: .seconds(20), maxConnectionAgeGrace: .seconds(30), maxFramesWithoutProgress: 3,
        frameFloodWindow: .seconds(10), readBudget: 1_000)

    /// One turn: each read's count and whether the TLS session still holds input, then the step that follows.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let reads: [(count: Int, moreBuffered: Bool)]
        let steps: [Step]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "a socket read yields, however much it took", reads: [(1_000, false)], steps: [.yield]),
        Row(name: "a short socket read yields", reads: [(10, false)], steps: [.yield]),
        Row(name: "nothing ready", reads: [(-1, false)], steps: [.yield]),
        Row(name: "the peer closed", reads: [(0, false)], steps: [.yield]),
        Row(
            name: "TLS input left and budget left: read the rest of the budget",
            reads: [(400, true), (350, true), (100, false)],
            steps: [.read(upTo: 600), .read(upTo: 250), .yield]),
        Row(
            name: "TLS input left with the budget spent: the back of the next turn",
            reads: [(400, true), (600, true)], steps: [.read(upTo: 600), .readNextTurn]),
        Row(
            name: "a TLS read that took nothing waits for the socket, whatever the session holds",
            reads: [(-1, true)], steps: [.yield]),
    ]

    @Test(arguments: rows)
    func aTurnReadsAtMostTheBudget(_ row: Row) {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        #expect(state.readTurnBegins() == .read(upTo: 1_000))
        let steps = row.reads.map { state.read($0.count, moreBuffered: $0.moreBuffered) }
        #expect(steps == row.steps)
    }

    @Test func eachTurnStartsWithTheWholeBudget() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        _ = state.readTurnBegins()
        #expect(state.read(1_000, moreBuffered: true) == .readNextTurn)
        #expect(state.readTurnBegins() == .read(upTo: 1_000))
        #expect(state.read(999, moreBuffered: true) == .read(upTo: 1))
    }

    @Test func aClosedConnectionReadsNoMore() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        _ = state.readTurnBegins()
        _ = state.closed()
        #expect(state.read(10, moreBuffered: true) == .yield)
    }

    @Test func theServersBudgetIsOneMaximumFrame() {
        let limits = ConnectionState.Limits(ServerConfiguration(host: "127.0.0.1", port: 0))
        #expect(limits.readBudget == 16_384)
    }
}
