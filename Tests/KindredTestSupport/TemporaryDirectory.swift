import Foundation
import Synchronization

/// A new empty directory /tmp/`prefix`-<UUID>, readable by everyone (a cluster's server user must traverse
/// it); the caller removes it, or, with `removedAtExit`, the test process does when it exits (for files a test's
/// servers may still read after the test's last mention of them).
public func temporaryDirectory(_ prefix: String = "kindred-test", removedAtExit: Bool = false) throws
    -> String
{
    let path = "/tmp/\(prefix)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    if removedAtExit { DirectoriesRemovedAtExit.add(path) }
    return path
}

/// The directories `temporaryDirectory(_:removedAtExit:)` leaves for the process's exit.
private enum DirectoriesRemovedAtExit {
    static let paths = Mutex<[String]>([])
    /// Registers the exit handler, once.
    static let registered: Void = {
        atexit {
            for path in DirectoriesRemovedAtExit.paths.withLock({ $0 }) {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }()

    static func add(_ path: String) {
        _ = registered
        paths.withLock { $0.append(path) }
    }
}
