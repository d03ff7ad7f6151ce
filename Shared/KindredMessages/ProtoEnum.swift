/// A generated proto enum: its known cases plus `.unrecognized(Int32)` for values from newer peers.
public protocol ProtoEnum: Sendable, Hashable {
    /// The proto3 default, the value numbered 0.
    init()

    /// The case for a wire value; an unknown value becomes `.unrecognized(value)`.
    init(rawValue: Int32)

    /// The wire value.
    var rawValue: Int32 { get }
}
