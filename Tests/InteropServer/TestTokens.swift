import Glibc
import KindredAuth

/// The tokens of `--require-token`: a fresh signing key, and an authenticator that trusts only it.
enum TestTokens {
    /// Writes a `full` token, then a `child_readonly` one, a line each, to `path`; both valid for a day.
    static func issue(to path: String) throws -> TokenAuthenticator {
        let key = SigningKey()
        let signer = TokenSigner(key: key)
        let now = TokenClock.system.now
        let tokens = [TokenClaims.Scope.full, .childReadOnly].map { scope in
            signer.sign(
                TokenClaims(
                    subject: "interop-client", role: .user, ageBand: .adult, parentalControls: false,
                    scope: scope, issuedAt: now, expiresAt: now + 86_400, tokenID: "interop-\(scope.rawValue)"
                ))
        }
        try write(tokens.joined(separator: "\n") + "\n", to: path)
        return TokenAuthenticator(keySource: FixedSigningKeys([key.verificationKey]))
    }

    private static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw TokenFileError(path: path) }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, file)
        guard fclose(file) == 0, written == bytes.count else { throw TokenFileError(path: path) }
    }
}

struct TokenFileError: Error, CustomStringConvertible {
    let path: String

    var description: String { "cannot write the test tokens to \(path)" }
}
