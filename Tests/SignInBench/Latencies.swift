/// Latencies of one run, summarized the way the README reports them.
struct Latencies {
    private(set) var samples: [Duration] = []

    mutating func append(_ sample: Duration) {
        samples.append(sample)
    }

    mutating func append(contentsOf other: Latencies) {
        samples.append(contentsOf: other.samples)
    }

    /// The `fraction` quantile in milliseconds (nearest rank).
    func milliseconds(at fraction: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return sorted[max(0, index)].milliseconds
    }

    /// `p50 … ms, p99 … ms`.
    var summary: String {
        "p50 \(format(milliseconds(at: 0.5))) ms, p99 \(format(milliseconds(at: 0.99))) ms"
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1_000 + Double(components.attoseconds) * 1e-15
    }
}

/// One decimal place, enough for milliseconds of hashing.
func format(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    return "\(tenths / 10)"
}
