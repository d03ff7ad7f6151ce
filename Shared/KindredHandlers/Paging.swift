public import FoundationEssentials
internal import KindredAuth
public import KindredMessages

/// The paging of every list RPC (DESIGN.md): `page_size` 0 for the default, at most the maximum, and an
/// opaque `page_token`. A token is base64url (unpadded) of a version line and the fields a list needs to
/// continue, one per line: clients cannot read or forge a meaningful one, and a list can check that a token
/// was made for the same question (the same prefix, the same filter) before it continues from it.
public enum Paging {
    /// The page size when a request leaves `page_size` at 0.
    public static let defaultSize = 50
    /// The largest page served, whatever a request asks for.
    public static let maximumSize = 500

    private static let version = "1"

    /// The page size `page` asks for; a negative one is recorded in `violations` as `page.page_size`.
    public static func size(of page: Kindred_Common_V1_PageRequest?, _ violations: inout FieldViolations)
        -> Int
    {
        let asked = page?.pageSize ?? 0
        if asked < 0 { violations.add("page.page_size", "must not be negative") }
        return asked <= 0 ? defaultSize : min(Int(asked), maximumSize)
    }

    /// A page token carrying `fields`, none of which may hold a newline.
    public static func token(_ fields: String...) -> String {
        Base64URL.encode(([version] + fields).joined(separator: "\n").utf8)
    }

    /// The `count` fields of `token`; nil when it is not a token of this form carrying that many.
    public static func fields(of token: String, count: Int) -> [String]? {
        guard let bytes = Base64URL.decode(token.utf8) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == count + 1, lines[0] == version else { return nil }
        return lines.dropFirst().map(String.init)
    }

    /// `instant` as a token field: whole microseconds since 1970, as PostgreSQL keeps it, so a keyset page
    /// continues from exactly the row it ended at.
    public static func field(_ instant: Date) -> String {
        String(Int64((instant.timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// The instant a token field written by `field(_:)` holds; nil for anything else.
    public static func instant(_ field: String) -> Date? {
        guard let microseconds = Int64(field), instantRange.contains(microseconds) else { return nil }
        return Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    /// The instants a token may carry, in microseconds since 1970: those of a protobuf `Timestamp`, years 1
    /// to 9999. A field further out was not written by `field(_:)`, and a list that bound it as a
    /// PostgreSQL timestamp would trap converting it (Int64.min did; Tests/Fuzz's page-token target checks).
    static let instantRange: ClosedRange<Int64> = -62_135_596_800_000_000...253_402_300_799_999_999
}
