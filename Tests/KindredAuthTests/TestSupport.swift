@testable import KindredAuth
import KindredTestSupport
import Synchronization

/// The fixed key and claims the interop vectors were made from (`seed` = bytes 0…31).
enum Fixture {
    static let seed = (0..<32).map(UInt8.init)
    static let issuedAt: Int64 = 1_790_000_000

    static func key() -> SigningKey {
        try! SigningKey(seed: seed)
    }

    /// The account `claims()` names by default.
    static let account = UUIDText.parse("0192f5e0-7c1a-7b3e-8f00-000000000001")!

    static func claims(
        subject: String = "0192f5e0-7c1a-7b3e-8f00-000000000001", issuedAt: Int64 = issuedAt,
        lifetime: Int64 = 900, tokenID: String = "0192f5e0-7c1a-7b3e-8f00-0000000000aa"
    ) -> TokenClaims {
        TokenClaims(
            subject: subject, role: .user, ageBand: .thirteenToFifteen, parentalControls: true,
            scope: .childReadOnly, issuedAt: issuedAt, expiresAt: issuedAt + lifetime, tokenID: tokenID)
    }

    /// A compact JWS with any header and payload text, signed by `key`: how tests forge what no signer makes.
    static func token(header: String, payload: String, key: SigningKey = key()) -> String {
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return signingInput + "." + Base64URL.encode(key.sign(Array(signingInput.utf8)))
    }

    /// The header a Kindred signer writes for `key`.
    static func header(for key: SigningKey = key()) -> String {
        #"{"alg":"EdDSA","kid":"\#(key.keyID)","typ":"JWT"}"#
    }
}

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let seconds: Atomic<Int64>

    init(_ now: Int64 = Fixture.issuedAt) {
        seconds = Atomic(now)
    }

    var now: Int64 { seconds.load(ordering: .relaxed) }

    func set(_ now: Int64) {
        seconds.store(now, ordering: .relaxed)
    }

    var tokenClock: TokenClock {
        TokenClock { self.now }
    }
}

/// A verifier that counts its Ed25519 verifications, so a test can tell a cache hit from a real check.
struct CountingVerifier {
    let verifier: TokenVerifier
    private let checks: Counter

    init(
        keys: [VerificationKey], clock: ManualClock, leeway: Duration = .seconds(60), cacheCapacity: Int = 64
    ) {
        let checks = Counter()
        self.checks = checks
        verifier = TokenVerifier(
            keys: keys, clock: clock.tokenClock, leeway: leeway, cacheCapacity: cacheCapacity,
            signatureCheckObserver: { checks.increment() })
    }

    var signatureChecks: Int { checks.value }

    func verify(_ token: String) throws(TokenVerificationError) -> Caller {
        try verifier.verify(token)
    }
}
