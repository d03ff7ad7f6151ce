/// The password rule registration and password reset share (issue 3): 6–128 characters, at least one digit
/// or other non-letter, no control characters, and not the username or the email address (ignoring case).
enum PasswordPolicy {
    /// Why `password` is refused for the account `username` / `email`, or nil when it is acceptable.
    static func problem(_ password: String, username: String, email: String) -> String? {
        guard (6...128).contains(password.count) else { return "must be 6 to 128 characters" }
        guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "must not contain control characters"
        }
        guard password.contains(where: { !$0.isLetter }) else {
            return "must contain at least one digit or special character"
        }
        let lowered = password.lowercased()
        guard lowered != username.lowercased(), lowered != email.lowercased() else {
            return "must not be the username or the email address"
        }
        return nil
    }
}
