import LoadTestKit
import Testing

@Suite struct WeightedMixTests {
    @Test func eachChoiceTakesAsManyRollsAsItsWeight() throws {
        let mix = try #require(
            WeightedMix([
                (choice: "feed", weight: 3), (choice: "none", weight: 0), (choice: "send", weight: 1),
            ]))
        #expect(mix.totalWeight == 4)
        #expect((0..<4).map { mix.choose(roll: $0) } == ["feed", "feed", "feed", "send"])
    }

    @Test func aSeededRunPicksInProportion() throws {
        let mix = try #require(WeightedMix([(choice: 0, weight: 9), (choice: 1, weight: 1)]))
        var generator = SplitMix(seed: 17)
        var picks = [0, 0]
        for _ in 0..<10_000 { picks[mix.choose(using: &generator)] += 1 }
        #expect((8_800...9_200).contains(picks[0]), "9:1 gave \(picks)")
    }

    @Test func noPositiveWeightOrANegativeOneIsRefused() {
        #expect(WeightedMix([(choice: "a", weight: 0)]) == nil)
        #expect(WeightedMix([(choice: "a", weight: 2), (choice: "b", weight: -1)]) == nil)
        #expect(WeightedMix<String>([]) == nil)
    }
}

/// A seeded generator, so a proportion test gives the same picks every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
