/// A test that cannot go on, with a message that says why: missing setup, a helper that failed, a wait that
/// ran out.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
