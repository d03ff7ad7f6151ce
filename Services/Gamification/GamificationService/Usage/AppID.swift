import KindredHandlers

/// App ids as the API takes them, everywhere one is named (usage uploads, challenges, reward apps, settings,
/// popular apps): 1 to 100 characters of any case, none of them a space or a control character. Compared as
/// given: `com.apple.MobileSMS` and `com.apple.mobilesms` are two apps, as the device reports them.
enum AppID {
    static let length = 1...100

    /// What is wrong with `text` as an app id; nil when nothing is.
    static func problem(_ text: String) -> String? {
        guard length.contains(text.count) else { return "must be 1 to 100 characters" }
        // An ASCII scalar is a space or a control character exactly when it is at most U+0020 or is DEL; only
        // the others need Unicode's property tables, a lookup a scalar that perf showed in every upload.
        let bad = text.unicodeScalars.contains {
            $0.isASCII
                ? $0.value <= 0x20 || $0.value == 0x7F
                : $0.properties.isWhitespace || $0.properties.generalCategory == .control
        }
        return bad ? "must hold no spaces or control characters" : nil
    }
}
