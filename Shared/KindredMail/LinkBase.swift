/// Where the links in a service's mail point: the scheme, host and any path prefix of a local app or web front
/// end, without a trailing slash. A link carries a single-use token as its query (`<base>/<path>?token=...`).
public struct LinkBase: Sendable, Equatable {
    /// The base when none is configured.
    public static let local = LinkBase("http://localhost:8080")!

    /// The base URL, without a trailing slash.
    public let url: String

    /// An `http://` or `https://` URL without query, fragment or whitespace (a trailing slash is dropped); nil
    /// for anything else.
    public init?(_ text: String) {
        guard text.hasPrefix("http://") || text.hasPrefix("https://"),
            !text.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" })
        else { return nil }
        url = text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The link that redeems `token` at `path` (`reset-password`).
    public func link(_ path: String, token: String) -> String {
        "\(url)/\(path)?token=\(token)"
    }
}
