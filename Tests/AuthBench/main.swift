import KindredAuth

// Token verification throughput on one core: every token new to the verifier (an Ed25519 check each),
// then the same tokens again (cache hits), plus the issuer's signing rate for scale. Build with
// `swift build -c release --product AuthBench`; the machine is shared, so compare numbers from one run.

let clock = ContinuousClock()
let key = SigningKey()
let signer = TokenSigner(key: key)
let now = TokenClock.system.now
let tokenCount = 2_000
let rounds = 5

func claims(_ index: Int) -> TokenClaims {
    TokenClaims(
        subject: "0192f5e0-7c1a-7b3e-8f00-\(String(100_000_000_000 + index))", role: .user, ageBand: .adult,
        parentalControls: false, scope: .full, issuedAt: now, expiresAt: now + 900,
        tokenID: "0192f5e0-7c1a-7b3e-8f00-\(String(200_000_000_000 + index))")
}

func rate(_ operations: Int, _ elapsed: Duration) -> String {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let perSecond = Double(operations) / seconds
    let microseconds = seconds * 1e6 / Double(operations)
    return "\(Int(perSecond.rounded()))/s (\((microseconds * 100).rounded() / 100) µs each)"
}

var tokens: [String] = []
let signing = clock.measure {
    tokens = (0..<tokenCount).map { signer.sign(claims($0)) }
}
print("sign:              \(rate(tokenCount, signing))")

// A fresh verifier per round, so every verification misses the cache and checks the signature.
var uncached: [Duration] = []
for _ in 0..<rounds {
    let verifier = TokenVerifier(keys: [key.verificationKey])
    uncached.append(clock.measure {
        for token in tokens { _ = try! verifier.verify(token) }
    })
}
print("verify, uncached:  \(rate(tokenCount, uncached.sorted()[rounds / 2])) median of \(rounds) rounds")

// One verifier that has seen every token: each call is a hash, a lock and a lookup.
let warm = TokenVerifier(keys: [key.verificationKey])
for token in tokens { _ = try! warm.verify(token) }
let repeats = 250
var cached: [Duration] = []
for _ in 0..<rounds {
    cached.append(clock.measure {
        for _ in 0..<repeats {
            for token in tokens { _ = try! warm.verify(token) }
        }
    })
}
print("verify, cached:    \(rate(tokenCount * repeats, cached.sorted()[rounds / 2])) median of \(rounds) rounds")
