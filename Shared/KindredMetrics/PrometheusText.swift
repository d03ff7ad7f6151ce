/// Prometheus' text exposition format (version 0.0.4): families with `# HELP` and `# TYPE`, then samples.
/// Samples are kept with their family, so sources that share a family (two event consumers) still render
/// each family as one group, as the format requires.
public struct PrometheusText: Sendable {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private var families: [String: [UInt8]] = [:]
    private var order: [String] = []

    public init() {}

    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// Every family in the order first named, each with its samples.
    public var bytes: [UInt8] { order.flatMap { families[$0]! } }

    /// Declares a family once (later calls with the same name add nothing), before its samples.
    public mutating func family(_ name: String, _ kind: Kind, help: String) {
        guard families[name] == nil else { return }
        order.append(name)
        families[name] = Array(
            "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n".utf8)
    }

    /// One sample line: `name{label="value",...} value`.
    public mutating func sample(
        _ name: String, _ labels: KeyValuePairs<String, String> = [:], _ value: Double
    ) {
        sample(name, labels: Array(labels), value)
    }

    public mutating func sample(_ name: String, labels: [(key: String, value: String)], _ value: Double) {
        sample(name, of: name, labels: labels, value)
    }

    private mutating func sample(
        _ name: String, of family: String, labels: [(key: String, value: String)], _ value: Double
    ) {
        var line = name
        if !labels.isEmpty {
            line += "{"
            for (index, label) in labels.enumerated() {
                if index > 0 { line += "," }
                line += "\(label.key)=\"\(Self.escapedLabel(label.value))\""
            }
            line += "}"
        }
        line += " \(Self.format(value))\n"
        if families[family] == nil { order.append(family) }
        families[family, default: []].append(contentsOf: line.utf8)
    }

    /// A histogram's `_bucket` lines (cumulative, `le` last), `_sum` and `_count`.
    public mutating func histogram(
        _ name: String, labels: [(key: String, value: String)], _ histogram: LatencyHistogram
    ) {
        let (cumulative, sum) = histogram.snapshot()
        for (index, count) in cumulative.enumerated() {
            let bound = index < histogram.bounds.count ? Self.format(histogram.bounds[index]) : "+Inf"
            sample(name + "_bucket", of: name, labels: labels + [("le", bound)], Double(count))
        }
        sample(name + "_sum", of: name, labels: labels, sum)
        sample(name + "_count", of: name, labels: labels, Double(cumulative.last ?? 0))
    }

    /// Whole numbers without a fraction (`12`, not `12.0`); others as Swift prints them, which Prometheus reads.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func escapedLabel(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }

    static func escapedHelp(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
