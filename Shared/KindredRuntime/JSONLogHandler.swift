public import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Writes each log event as one JSON object on one line of standard error, the shape log shippers
/// (journald, Kubernetes, Loki) parse without configuration. The line is built as bytes (every call's
/// access line passes here) and written by a thread of its own (`LogLineWriter`), never by the thread that
/// logs.
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
        var fields = event.metadata ?? [:]
        if let provided = metadataProvider?.get() { fields.merge(provided) { line, _ in line } }
        if !metadata.isEmpty { fields.merge(metadata) { line, _ in line } }

        var line: [UInt8] = []
        line.reserveCapacity(320)
        line.append(contentsOf: #"{"time":""#.utf8)
        UTCTimestamp.append(to: &line)
        line.append(contentsOf: #"","level":""#.utf8)
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(contentsOf: #"","logger":"#.utf8)
        JSONText.appendQuoted(label, to: &line)
        line.append(contentsOf: #","message":"#.utf8)
        JSONText.appendQuoted(event.message.description, to: &line)
        if let error = event.error {
            line.append(contentsOf: #","error":"#.utf8)
            JSONText.appendQuoted(String(describing: error), to: &line)
        }
        for key in fields.keys.sorted() {
            line.append(UInt8(ascii: ","))
            JSONText.appendQuoted(key, to: &line)
            line.append(UInt8(ascii: ":"))
            JSONText.append(fields[key]!, to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        LogLineWriter.standardError.append(line)
    }
}

/// JSON encoding of log text and metadata values.
enum JSONText {
    static func value(_ value: Logger.Metadata.Value) -> String {
        var out: [UInt8] = []
        append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func append(_ value: Logger.Metadata.Value, to out: inout [UInt8]) {
        switch value {
        case .string(let text): appendQuoted(text, to: &out)
        case .stringConvertible(let convertible): appendQuoted(convertible.description, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            out.append(UInt8(ascii: "{"))
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(entries[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string: UTF-8 as it is, quotes, backslashes and control characters escaped.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most log text needs no escape: copy it whole.
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else { return out.append(contentsOf: bytes) }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                case ..<0x20:
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// The current UTC time as RFC 3339 with milliseconds, without Foundation's formatters.
enum UTCTimestamp {
    static func now() -> String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func append(to out: inout [UInt8]) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        append(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000), to: &out)
    }

    static func format(seconds: Int, milliseconds: Int) -> String {
        var out: [UInt8] = []
        append(seconds: seconds, milliseconds: milliseconds, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(seconds: Int, milliseconds: Int, to out: inout [UInt8]) {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        out.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        out.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        out.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        out.append(UInt8(ascii: "."))
        digits(milliseconds, 3)
        out.append(UInt8(ascii: "Z"))
    }
}
