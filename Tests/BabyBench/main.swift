import Foundation
import KindredAPI
import KindredMessages
import KindredRPC

// The delay from a comment to its arrival on open `WatchProfileActivity` streams, which h2load cannot measure.
// Holds STREAMS streams of the scene's followers on its hot profile over CONNECTIONS connections, has the
// first follower comment on the profile's calendar event RATE times a second for SECONDS through `AddComment`,
// and appends a row `report.py table` reads (plus max_ms) to RESULTS. A delivery is one comment reaching one
// stream; its delay runs from the moment `AddComment` returned to the moment the stream hands the entry over.
//
//   kindred-baby-bench RESULTS TARGET SCENE STREAMS CONNECTIONS RATE SECONDS LABEL
// SCENE: "profile_id event_id" on the first line, then "user_id access_token" per follower.

let arguments = CommandLine.arguments
guard arguments.count == 9, let streams = Int(arguments[4]), let connections = Int(arguments[5]),
    let rate = Int(arguments[6]), let seconds = Int(arguments[7])
else {
    FileHandle.standardError.write(Data("usage: see Tests/BabyBench/main.swift\n".utf8))
    exit(2)
}
let (results, target, label) = (arguments[1], arguments[2], arguments[8])
let sceneLines = try String(contentsOfFile: arguments[3], encoding: .utf8).split(separator: "\n")
let hot = sceneLines[0].split(separator: " ").map(String.init)
let hotProfile = hot[0]
let followers = sceneLines.dropFirst().map { line in
    let parts = line.split(separator: " ")
    return (id: String(parts[0]), token: String(parts[1]))
}

let writer = CommentWriter(
    family: Kindred_Family_V1_FamilyService.Client(try RPCClient(target: target)), profile: hotProfile,
    event: hot[1], token: followers[0].token)
let run = DelayRun(
    followers: followers.map(\.token), profile: hotProfile, streams: streams, connections: connections,
    rate: rate, duration: .seconds(seconds))
let outcome = try await run.run(target: target, writer: writer)
writer.family.rpc.close()

let sorted = outcome.delays.sorted()
func milliseconds(at fraction: Double) -> Double? {
    guard !sorted.isEmpty else { return nil }
    let sample = sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count)))]
    return Double(sample.components.attoseconds) / 1e15 + Double(sample.components.seconds) * 1e3
}
let elapsedSeconds =
    Double(outcome.elapsed.components.seconds) + Double(outcome.elapsed.components.attoseconds) / 1e18
let row: [String: Any?] = [
    "server": "family", "load": label, "rps": Double(sorted.count) / elapsedSeconds,
    "p50_ms": milliseconds(at: 0.5), "p99_ms": milliseconds(at: 0.99), "max_ms": milliseconds(at: 1),
    "failed": outcome.missed, "succeeded": sorted.count, "rss_mib": nil, "cpu_us": nil,
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
    "  family   \(label)  \(Int(Double(sorted.count) / elapsedSeconds)) deliveries/s  missed \(outcome.missed)  "
        + "p50 \(milliseconds(at: 0.5) ?? .nan) ms  p99 \(milliseconds(at: 0.99) ?? .nan) ms  "
        + "max \(milliseconds(at: 1) ?? .nan) ms")
