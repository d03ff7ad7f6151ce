public import Logging
import Synchronization

/// A log a test reads back: every logger it makes keeps its lines here, with their level and metadata.
public final class CapturedLog: Sendable {
    /// One logged line.
    public struct Line: Sendable, CustomStringConvertible {
        public let label: String
        public let level: Logger.Level
        public let message: String
        /// The logger's metadata and the line's own, as text.
        public let fields: [String: String]

        public var description: String { "\(level) \(message) \(fields.sorted { $0.key < $1.key })" }
    }

    private let captured = Mutex<[Line]>([])
    private let level: Logger.Level

    /// A log that keeps lines at `level` and above, as an operator's `--log-level` would.
    public init(level: Logger.Level = .trace) {
        self.level = level
    }

    /// A logger writing into this log.
    public func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, log: self) }
        logger.logLevel = level
        return logger
    }

    /// Every line so far, in order.
    public var lines: [Line] { captured.withLock { $0 } }

    /// The lines whose message is `message`.
    public func lines(_ message: String) -> [Line] { lines.filter { $0.message == message } }

    fileprivate func append(_ line: Line) {
        captured.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let label: String
        let log: CapturedLog
        var logLevel = Logger.Level.trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            log.append(
                Line(
                    label: label, level: event.level, message: event.message.description,
                    fields: merged.mapValues(\.description)))
        }
    }
}
