import FoundationEssentials
import KindredAuth
import KindredEvents
import KindredMail
import KindredRuntime

/// `kindred-identity keys rotate`, `kindred-identity keys rotate-data` and `kindred-identity clients hash-secret`.
enum IdentityCommands {
    static let all = [rotateKeys, rotateData, hashSecret]

    /// Seals every date of birth, email, unsent mail and event payload under the first data key (emails indexed
    /// under `KINDRED_IDENTITY_SECRET_KEY`); safe while instances serve.
    static let rotateData = ServiceCommand.rotateData(service: "identity") { environment, cipher in
        let dates = BirthDates(cipher: cipher)
        let secret = try IdentitySettings.secret(ProcessInfo.processInfo.environment)
        return [
            BirthDateRotation.accounts(database: environment.database, dates: dates),
            EmailRotation(
                database: environment.database, emails: AccountEmails(cipher: cipher, secret: secret)),
            BirthDateRotation.emailTokens(database: environment.database, dates: dates),
            SealedMailOutbox(MailOutbox(schema: "identity", cipher: cipher), on: environment.database),
            SealedEventOutbox(EventOutbox(schema: "identity"), cipher: cipher, on: environment.database),
        ]
    }

    /// Makes a new signing key the signer; running instances pick it up within 30 seconds, and the old key
    /// keeps verifying until every token it signed has expired.
    static let rotateKeys = ServiceCommand(
        words: ["keys", "rotate"],
        summary: "Make a new signing key the signer (needs the database and KINDRED_IDENTITY_SECRET_KEY).",
        action: .withDatabase { environment in
            let secret = try IdentitySettings.secret(ProcessInfo.processInfo.environment)
            let store = SigningKeyStore(database: environment.database, secret: secret)
            // Under a secret other than the running instances' the new signer would open nowhere, and every
            // sign-in would fail: the current signer must open with this secret first.
            do { _ = try await store.signer(unless: nil) } catch SigningKeyError.noSigner {}
            let key = try await store.rotate()
            environment.logger.notice("signing key rotated", metadata: ["kid": "\(key.keyID)"])
            print(key.keyID)
        })

    /// Reads a client secret from standard input and prints the Argon2id hash that goes into the clients file.
    static let hashSecret = ServiceCommand(
        words: ["clients", "hash-secret"],
        summary: "Read a client secret on standard input, print its hash for KINDRED_IDENTITY_CLIENTS_FILE.",
        action: .offline {
            guard let secret = readLine(strippingNewline: true),
                secret.utf8.count >= ClientRegistry.shortestSecret
            else {
                throw StartupError(
                    "give the secret on standard input: at least \(ClientRegistry.shortestSecret) characters")
            }
            print(try await PasswordHasher(cost: .standard, concurrency: 1).hash(secret))
        })
}
