import Foundation

/// A new empty directory /tmp/`prefix`-<UUID>, readable by everyone (a cluster's server user must traverse
/// it); the caller removes it.
public func temporaryDirectory(_ prefix: String = "kindred-test") throws -> String {
    let path = "/tmp/\(prefix)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
}
