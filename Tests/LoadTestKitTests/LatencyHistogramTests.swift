import LoadTestKit
import Testing

@Suite struct LatencyHistogramTests {
    @Test func percentilesOfOneToTenThousandAreWithinTheStatedPrecision() {
        var histogram = LatencyHistogram()
        for value in UInt64(1)...10_000 { histogram.record(microseconds: value) }
        for (fraction, exact) in [(0.5, 5_000.0), (0.9, 9_000.0), (0.99, 9_900.0), (0.999, 9_990.0)] {
            let reported = Double(histogram.percentile(fraction))
            #expect(reported >= exact, "p\(fraction) under-reports: \(reported) < \(exact)")
            #expect(reported <= exact * 1.016, "p\(fraction) is \(reported), more than 1.6% over \(exact)")
        }
        #expect(histogram.percentile(1) == 10_000)
        #expect(histogram.maxMicroseconds == 10_000)
        #expect(histogram.count == 10_000)
    }

    @Test func smallValuesAreExact() {
        var histogram = LatencyHistogram()
        for value in [3, 7, 7, 100] as [UInt64] { histogram.record(microseconds: value) }
        #expect(histogram.percentile(0.25) == 3)
        #expect(histogram.percentile(0.5) == 7)
        #expect(histogram.percentile(0.75) == 7)
        #expect(histogram.percentile(1) == 100)
    }

    @Test func aPercentileNeverExceedsTheLargestValueRecorded() {
        var histogram = LatencyHistogram()
        histogram.record(microseconds: 1_000_001)
        #expect(histogram.percentile(0.5) == 1_000_001)
    }

    @Test func mergingTwoHalvesGivesWhatRecordingTheWholeGives() {
        var whole = LatencyHistogram()
        var low = LatencyHistogram()
        var high = LatencyHistogram()
        for value in UInt64(1)...50_000 {
            let sample = value * 37 % 2_000_003
            whole.record(microseconds: sample)
            if value % 2 == 0 { low.record(microseconds: sample) } else { high.record(microseconds: sample) }
        }
        var merged = LatencyHistogram()
        merged.merge(high)
        merged.merge(low)
        #expect(merged == whole)
        #expect(merged.percentile(0.99) == whole.percentile(0.99))
    }

    @Test func anEmptyHistogramReportsZero() {
        #expect(LatencyHistogram().percentile(0.99) == 0)
        #expect(LatencyHistogram().maxMilliseconds == 0)
    }

    @Test func durationsAreRecordedInMicroseconds() {
        var histogram = LatencyHistogram()
        histogram.record(.milliseconds(250))
        histogram.record(.seconds(-1))
        #expect(histogram.maxMicroseconds == 250_000)
        #expect(histogram.percentile(0.5) == 0)
    }
}
