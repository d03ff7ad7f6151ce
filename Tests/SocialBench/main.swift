import Foundation
import KindredAPI
import KindredMessages
import KindredRPC

// A load generator for SendMessage and UploadUsage, which h2load cannot drive: every call needs its own
// request_id (or sessions) and the senders their own tokens (one sender would measure one conversation's row
// locks, not the service). One run of one scenario against kindred-social (or kindred-gamification), appended
// to RESULTS as a row `report.py table` reads (the same keys as its h2load rows, the server named by
// KINDRED_BENCH_SERVER, default social); `health` runs Health/Check through the same generator, the reference.
//
//   kindred-social-bench RESULTS TARGET SCENE_JSON SERVER_PID SECONDS CONNECTIONS IN_FLIGHT SCENARIO LABEL
//                        [RATE]
//   SCENARIO: health | unrestricted | restricted | refused | watch | upload
// `upload` (UsageUpload.swift) sends batches of 50 new sessions as the scene's uploaders.
// `watch` (WatchRun.swift) holds IN_FLIGHT streams for every watched user over CONNECTIONS connections while
// RATE messages a second (500 by default) are sent to them; its row counts deliveries, not calls.

let arguments = CommandLine.arguments
guard arguments.count == 10 || arguments.count == 11, let seconds = Int(arguments[5]),
    let connections = Int(arguments[6]), let inFlight = Int(arguments[7]), let pid = Int32(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: see Tests/SocialBench/main.swift\n".utf8))
    exit(2)
}
let (results, target, scenario, label) = (arguments[1], arguments[2], arguments[8], arguments[9])
let scene = try Scene.load(arguments[3])
let server = ServerProcess(pid: pid)
let serverName = ProcessInfo.processInfo.environment["KINDRED_BENCH_SERVER"] ?? "social"

/// One SendMessage from `senders[worker]` to one of its recipients, a new request_id each; `refused` expects
/// PARENTAL_CONTROLS_MESSAGING_RESTRICTED and fails on anything else.
func sendMessage(_ senders: [Scene.Sender], expectRefusal: Bool)
    -> @Sendable (Int, RPCClient, Int) async throws
    -> Void
{
    { worker, client, iteration in
        let sender = senders[worker % senders.count]
        var options = CallOptions(timeout: .seconds(30))
        options.metadata.add("authorization", "Bearer \(sender.token)")
        let request = Kindred_Social_V1_SendMessageRequest(
            requestID: UUID().uuidString,
            recipientUserID: sender.recipients[iteration % sender.recipients.count],
            text: "See you at the beach at ten?")
        do {
            _ = try await Kindred_Social_V1_SocialService.Client(client).sendMessage(
                request, options: options)
            if expectRefusal {
                throw RPCError(.internal, "a restricted minor's message to a stranger was sent")
            }
        } catch let error as RPCError where expectRefusal && error.code == .permissionDenied {
            return
        }
    }
}

let call: @Sendable (Int, RPCClient, Int) async throws -> Void =
    switch scenario {
    case "health":
        { _, client, _ in
            _ = try await Grpc_Health_V1_Health.Client(client).check(
                .init(), options: CallOptions(timeout: .seconds(30)))
        }
    case "unrestricted": sendMessage(scene.unrestricted, expectRefusal: false)
    case "restricted": sendMessage(scene.restricted, expectRefusal: false)
    case "refused": sendMessage(scene.refused, expectRefusal: true)
    case "watch": { _, _, _ in }
    case "upload": UsageUpload(uploaders: scene.uploaders ?? []).call
    default: fatalError("unknown scenario \(scenario)")
    }

var cpuBefore = try server.cpuMicroseconds()
var cpuUsed = 0.0
let (outcome, elapsed): (LoadRun.Outcome, Duration)
if scenario == "watch" {
    let watched = try await WatchRun(
        watched: scene.watched, senders: scene.unrestricted, streamsPerUser: inFlight,
        connections: connections,
        rate: arguments.count == 11 ? Int(arguments[10])! : 500, duration: .seconds(seconds)
    ).run(target: target) { started in
        if started {
            cpuBefore = try server.cpuMicroseconds()
        } else {
            cpuUsed = try server.cpuMicroseconds() - cpuBefore
        }
    }
    (outcome, elapsed) = (
        LoadRun.Outcome(latencies: watched.latencies, failed: watched.failed), watched.elapsed
    )
} else {
    (outcome, elapsed) = try await LoadRun(
        connections: connections, inFlight: inFlight, duration: .seconds(seconds)
    ).run(target: target, call)
    cpuUsed = try server.cpuMicroseconds() - cpuBefore
}

let sorted = outcome.latencies.sorted()
func milliseconds(at fraction: Double) -> Double? {
    guard !sorted.isEmpty else { return nil }
    let sample = sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count)))]
    return Double(sample.components.attoseconds) / 1e15 + Double(sample.components.seconds) * 1e3
}
let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let row: [String: Any?] = [
    "server": serverName, "load": label, "rps": Double(sorted.count) / elapsedSeconds,
    "p50_ms": milliseconds(at: 0.5), "p99_ms": milliseconds(at: 0.99), "failed": outcome.failed,
    "succeeded": sorted.count, "rss_mib": try server.peakResidentMiB(),
    "cpu_us": sorted.isEmpty ? nil : cpuUsed / Double(sorted.count),
    "postgres_cpu_us": nil,
]
let json = try JSONSerialization.data(
    withJSONObject: row.mapValues { $0 ?? NSNull() }, options: [.sortedKeys])
if !FileManager.default.fileExists(atPath: results) {
    _ = FileManager.default.createFile(atPath: results, contents: nil)
}
let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: results))
try handle.seekToEnd()
try handle.write(contentsOf: json + Data("\n".utf8))
try handle.close()
print(
    "  \(serverName)   \(label)  \(Int(Double(sorted.count) / elapsedSeconds)) req/s  failed \(outcome.failed)  "
        + "p50 \(milliseconds(at: 0.5) ?? .nan) ms  p99 \(milliseconds(at: 0.99) ?? .nan) ms")
