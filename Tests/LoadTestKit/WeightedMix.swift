/// Choices with weights: `choose(roll:)` maps a roll in `0..<totalWeight` to a choice, each choice taking as
/// many rolls as its weight, so a uniform roll picks each in proportion. Weights of 0 are never chosen.
public struct WeightedMix<Choice: Sendable>: Sendable {
    public let entries: [(choice: Choice, weight: Int)]
    public let totalWeight: Int

    /// Nil when no weight is positive or one is negative.
    public init?(_ entries: [(choice: Choice, weight: Int)]) {
        guard entries.allSatisfy({ $0.weight >= 0 }) else { return nil }
        let total = entries.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        self.entries = entries
        self.totalWeight = total
    }

    public func choose(roll: Int) -> Choice {
        precondition((0..<totalWeight).contains(roll), "roll \(roll) outside 0..<\(totalWeight)")
        var left = roll
        for entry in entries {
            if left < entry.weight { return entry.choice }
            left -= entry.weight
        }
        preconditionFailure("unreachable: the weights sum to totalWeight")
    }

    /// Inlinable, so that the tool's open loop gets it specialized for its generator: a generic
    /// `Int.random(in:using:)` a call, resolved at run time, showed in the tool's profile (issue 27).
    @inlinable
    public func choose(using generator: inout some RandomNumberGenerator) -> Choice {
        choose(roll: Int.random(in: 0..<totalWeight, using: &generator))
    }
}
