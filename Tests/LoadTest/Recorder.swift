import KindredRPC
import LoadTestKit
import Synchronization

/// Every call's outcome, by RPC, for the whole run and for the live line's last window; shared by all virtual
/// users (one lock, held for a histogram increment).
final class Recorder: Sendable {
    struct Window {
        var calls = 0
        var errors = 0
        var latencies = LatencyHistogram()
    }

    private let tallies = Mutex<[String: RPCTally]>([:])
    private let window = Mutex(Window())
    let connectedUsers = Atomic(0)
    let openStreams = Atomic(0)

    /// Runs `call` as `method` (reported under `label` when given, for a named share of a method's calls),
    /// timed from `due` (the open loop's due time) or from now; a thrown RPCError that `isExpected` accepts
    /// is an expected refusal, any other error a failure by its status. True when the call succeeded.
    @discardableResult
    func time(
        _ method: MethodDescriptor, as label: String? = nil, from due: ContinuousClock.Instant? = nil,
        isExpected: (RPCError) -> Bool = { _ in false }, _ call: () async throws -> Void
    ) async -> Bool {
        let started = due ?? .now
        var failure: String?
        var refused = false
        do {
            try await call()
        } catch let error as RPCError where isExpected(error) {
            refused = true
        } catch let error as RPCError {
            failure = "\(error.code)"
        } catch {
            failure = "client: \(error)"
        }
        record(label ?? method.rpcName, latency: .now - started, failure: failure, refused: refused)
        return failure == nil && !refused
    }

    func record(_ rpc: String, latency: Duration, failure: String?, refused: Bool = false) {
        tallies.withLock { tallies in
            if let failure {
                tallies[rpc, default: RPCTally()].failuresByStatus[failure, default: 0] += 1
            } else {
                tallies[rpc, default: RPCTally()].latencies.record(latency)
                if refused { tallies[rpc, default: RPCTally()].expectedRefusals += 1 }
            }
        }
        window.withLock { window in
            window.calls += 1
            if failure != nil { window.errors += 1 } else { window.latencies.record(latency) }
        }
    }

    /// The window since the last call, and a new one started.
    func takeWindow() -> Window {
        window.withLock { window in
            defer { window = Window() }
            return window
        }
    }

    var results: [String: RPCTally] { tallies.withLock { $0 } }
}

extension MethodDescriptor {
    /// How the report names the method: `<Service>/<Method>`, the service fully qualified.
    var rpcName: String { "\(service)/\(method)" }
}
