/// Parses `HOST:PORT` and `[IPv6]:PORT` listen addresses.
public enum ListenAddress {
    /// The host and port of `HOST:PORT` or `[IPv6]:PORT`, or a `StartupError` saying what is wrong.
    public static func parse(_ text: String) throws(StartupError) -> (host: String, port: Int) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":")
            else {
                throw StartupError("listen address '\(text)' is not [IPv6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw StartupError("listen address '\(text)' is not HOST:PORT")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65535).contains(port), !host.isEmpty else {
            throw StartupError("listen address '\(text)' is not HOST:PORT with a port from 0 to 65535")
        }
        return (String(host), port)
    }
}
