import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Writes each log event as one JSON object on one line of standard error, the shape log shippers
/// (journald, Kubernetes, Loki) parse without configuration. The line is written by a thread of its own
/// (`LogLineWriter`), never by the thread that logs.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String, level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }

        var line = "{\"time\":\"\(UTCTimestamp.now())\",\"level\":\"\(event.level)\""
        line += ",\"logger\":" + JSONText.quoted(label)
        line += ",\"message\":" + JSONText.quoted(event.message.description)
        if let error = event.error {
            line += ",\"error\":" + JSONText.quoted(String(describing: error))
        }
        for key in fields.keys.sorted() {
            line += "," + JSONText.quoted(key) + ":" + JSONText.value(fields[key]!)
        }
        line += "}\n"
        LogLineWriter.standardError.append(line)
    }
}

/// JSON encoding of log text and metadata values.
enum JSONText {
    static func value(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .stringConvertible(let convertible): quoted(convertible.description)
        case .array(let items): "[" + items.map(Self.value).joined(separator: ",") + "]"
        case .dictionary(let entries):
            "{" + entries.keys.sorted().map { quoted($0) + ":" + Self.value(entries[$0]!) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The current UTC time as RFC 3339 with milliseconds, without Foundation's formatters.
enum UTCTimestamp {
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return format(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    static func format(seconds: Int, milliseconds: Int) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
            + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
            + ".\(pad(Int32(milliseconds), 3))Z"
    }
}
