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
