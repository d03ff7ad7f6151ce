public import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Writes each log event as one JSON object on one line of standard error (or of a log file that rotates,
/// see `LogLineWriter`), the shape log shippers (journald, Kubernetes, Loki) parse without configuration. The
/// line is built as bytes and written by a thread of its own, never by the thread that logs; a call's access
/// line skips swift-log's metadata dictionary altogether (`JSONLogHandler+AccessLine.swift`).
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let writer: LogLineWriter

    public init(
        label: String, level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil,
        writer: LogLineWriter = .standardError
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.writer = writer
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
        appendHead(level: event.level, to: &line)
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
        writer.append(line)
    }

    /// `{"time":…,"level":…,"logger":…,"message":` — the message itself follows.
    func appendHead(level: Logger.Level, to line: inout [UInt8]) {
        line.append(contentsOf: #"{"time":""#.utf8)
        UTCTimestamp.append(to: &line)
        line.append(contentsOf: #"","level":""#.utf8)
        line.append(contentsOf: level.rawValue.utf8)
        line.append(contentsOf: #"","logger":"#.utf8)
        JSONText.appendQuoted(label, to: &line)
        line.append(contentsOf: #","message":"#.utf8)
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

    // Civil date from days since 1970 (Howard Hinnant's days_from_civil, inverted): glibc's gmtime_r takes the
    // time zone lock on every call, and every access line needs a timestamp.
    private static func append(seconds: Int, milliseconds: Int, to out: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // Filled in place and appended once: an append per character is a capacity check each.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            func put(_ value: Int, at index: Int, width: Int) {
                var rest = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    text[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
            }
            put(year, at: 0, width: 4)
            put(month, at: 5, width: 2)
            put(day, at: 8, width: 2)
            put(secondOfDay / 3_600, at: 11, width: 2)
            put(secondOfDay / 60 % 60, at: 14, width: 2)
            put(secondOfDay % 60, at: 17, width: 2)
            put(milliseconds, at: 20, width: 3)
            (text[4], text[7], text[10], text[13]) = (
                UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":")
            )
            (text[16], text[19], text[23]) = (UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "Z"))
            out.append(contentsOf: UnsafeBufferPointer(text))
        }
    }
}
