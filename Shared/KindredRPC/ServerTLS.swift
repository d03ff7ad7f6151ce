#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A TLS listener's credentials: the context each new handshake takes, built again from the files by
/// `reload()`. A connection keeps the context it started with, so a reload drops no connection.
final class ServerTLS: Sendable {
    let settings: ServerTLSSettings
    private let current: Mutex<Loaded>

    private struct Loaded {
        var context: TLSContext
        var stamps: [FileStamp]
    }

    /// Loads the files; throws when they do not make a working context.
    init(settings: ServerTLSSettings) throws(TLSError) {
        self.settings = settings
        current = Mutex(Loaded(context: try TLSContext.server(settings), stamps: Self.stamps(settings)))
    }

    /// The context new handshakes use.
    var context: TLSContext { current.withLock { $0.context } }

    /// Reads the files again; on an error the previous credentials stay in use and the error is thrown.
    func reload() throws(TLSError) {
        let stamps = Self.stamps(settings)
        let context = try TLSContext.server(settings)
        current.withLock { $0 = Loaded(context: context, stamps: stamps) }
    }

    /// Reloads when a file changed since it was last read: nil when none did, else how the reload went.
    func reloadIfChanged() -> Result<Void, TLSError>? {
        let stamps = Self.stamps(settings)
        let changed = current.withLock { loaded in
            guard loaded.stamps != stamps else { return false }
            // Remembered even if the new files do not load, so a broken file is reported once, not every tick.
            loaded.stamps = stamps
            return true
        }
        guard changed else { return nil }
        do throws(TLSError) {
            let context = try TLSContext.server(settings)
            current.withLock { $0.context = context }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    private static func stamps(_ settings: ServerTLSSettings) -> [FileStamp] {
        [settings.certificateFile, settings.privateKeyFile, settings.clientCAFile].compactMap { $0 }.map(
            FileStamp.init)
    }
}

/// What says a file changed: its inode (a rename over it, as cert-manager and `mv` do), size and mtime.
struct FileStamp: Equatable, Sendable {
    let inode: UInt64
    let size: Int64
    let modified: Int64

    init(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            (inode, size, modified) = (0, -1, 0)
            return
        }
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}
