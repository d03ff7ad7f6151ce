public import FoundationEssentials

/// A Swift value that can be sent as a bind parameter.
public protocol PostgresEncodable: Sendable {
    /// The parameter type; `.unspecified` lets the server infer it and sends the value as text.
    static var postgresDataType: PostgresDataType { get }
    /// Appends the value (binary format, or UTF-8 text for `.unspecified`); returns false for NULL.
    func encodePostgres(into bytes: inout [UInt8]) -> Bool
}

extension FixedWidthInteger {
    fileprivate func appendBigEndian(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension Int: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .int8 }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        Int64(self).appendBigEndian(to: &bytes)
        return true
    }
}

extension Int64: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .int8 }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        appendBigEndian(to: &bytes)
        return true
    }
}

extension Int32: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .int4 }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        appendBigEndian(to: &bytes)
        return true
    }
}

extension Bool: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .bool }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        bytes.append(self ? 1 : 0)
        return true
    }
}

extension Double: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .float8 }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        bitPattern.appendBigEndian(to: &bytes)
        return true
    }
}

// Strings go as untyped text so that one Swift type binds to text, varchar, uuid, date or enum columns alike;
// the server parses the text for the type the statement needs.
extension String: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .unspecified }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        bytes.append(contentsOf: utf8)
        return true
    }
}

extension Array: PostgresEncodable where Element == UInt8 {
    public static var postgresDataType: PostgresDataType { .bytea }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        bytes.append(contentsOf: self)
        return true
    }
}

extension Date: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .timestamptz }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        PostgresTime.microseconds(since2000: self).appendBigEndian(to: &bytes)
        return true
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { Wrapped.postgresDataType }
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        self?.encodePostgres(into: &bytes) ?? false
    }
}

/// PostgreSQL's binary timestamps count microseconds from 2000-01-01 00:00:00 UTC.
enum PostgresTime {
    static let epoch2000 = Date(timeIntervalSince1970: 946_684_800)

    static func microseconds(since2000 date: Date) -> Int64 {
        Int64((date.timeIntervalSince(epoch2000) * 1_000_000).rounded())
    }

    static func date(microsecondsSince2000 value: Int64) -> Date {
        if value == .max { return .distantFuture }
        if value == .min { return .distantPast }
        // Whole microseconds since 1970 over 1e6, the very Double WallClock.now and a decoded Timestamp give for
        // the same instant: a time read back from a row then equals the one a change answered.
        let (since1970, overflow) = value.addingReportingOverflow(946_684_800_000_000)
        if !overflow { return Date(timeIntervalSince1970: Double(since1970) / 1_000_000) }
        let seconds = value.quotientAndRemainder(dividingBy: 1_000_000)
        return epoch2000.addingTimeInterval(Double(seconds.quotient) + Double(seconds.remainder) / 1_000_000)
    }
}
