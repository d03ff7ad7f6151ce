public import FoundationEssentials
internal import KindredAuth

/// An id of one kind of thing: a user, an event, a message. `Kind` is a caseless marker (`IDKind.User`), so a
/// user id cannot be passed where an event id is meant. It holds the UUID's 16 bytes, so two spellings of one
/// id are equal and its text is always the canonical lowercase form: parse a caller's text once, at the edge.
public struct ID<Kind>: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id's 16 bytes.
    public let uuid: UUID

    /// Wraps `uuid`.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// The id in `text` when it is a UUID in the 8-4-4-4-12 hex form, any case (any version); nil otherwise,
    /// braces and surrounding spaces included.
    public init?(_ text: String) {
        guard let uuid = UUIDText.parse(text) else { return nil }
        self.uuid = uuid
    }

    /// A new UUIDv7 id for `instant`, so ids sort by creation time.
    public static func generate(at instant: Date) -> ID {
        ID(UUIDv7.generateUUID(at: instant))
    }

    /// The canonical lowercase 8-4-4-4-12 text, as PostgreSQL prints a `uuid`.
    public var description: String { UUIDText.format(uuid) }

    /// PostgreSQL's order of `uuid`s: their bytes', which is also their canonical text's.
    public static func < (a: ID, b: ID) -> Bool {
        withUnsafeBytes(of: a.uuid.uuid) { a in
            withUnsafeBytes(of: b.uuid.uuid) { b in a.lexicographicallyPrecedes(b) }
        }
    }
}

/// The markers of `ID`'s kinds. Each service declares its own kinds in an extension, beside their aliases.
public enum IDKind {
    /// A person's account, the id identity issues and every service talks of.
    public enum User {}
}

/// A person's account id, as the token's subject names it.
public typealias UserID = ID<IDKind.User>
