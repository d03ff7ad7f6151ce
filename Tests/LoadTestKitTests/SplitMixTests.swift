import LoadTestKit
import Testing

@Suite struct SplitMixTests {
    /// The reference SplitMix64's first outputs from seed 0 (Vigna's splitmix64.c).
    @Test func seedZeroGivesTheReferenceSequence() {
        var generator = SplitMix(seed: 0)
        #expect(
            (0..<3).map { _ in generator.next() } == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
    }

    @Test func twoUnseededGeneratorsPickDifferently() {
        var first = SplitMix()
        var second = SplitMix()
        #expect((0..<4).map { _ in first.next() } != (0..<4).map { _ in second.next() })
    }
}
