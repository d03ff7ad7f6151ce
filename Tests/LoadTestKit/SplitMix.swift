/// SplitMix64 (Steele, Lea and Flood): a fast generator of 64 bits a step from a 64-bit state, statistically
/// sound for choosing the mix's actions and the think times, not for secrets. The open loop picks an action
/// for every call: with `SystemRandomNumberGenerator` each pick was a `getrandom` system call and an
/// unspecialized `Int.random(in:using:)`, ~3% of the tool's CPU at 1,000 calls/s (issue 27). Seeded, a test
/// gets the same picks every run.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// Seeded from the system's generator: each run, and each open loop, picks differently.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
