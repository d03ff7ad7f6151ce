import KindredHandlers
import KindredPostgres
import KindredRPC

/// How content created under a `request_id` is created once: the create's transaction first looks for what
/// the caller created under that key and answers it (a retry); two retries racing both miss it, and the
/// table's unique key on (profile, caller, request_id) fails the later insert, whose caller then reads the
/// first one's result.
enum IdempotentCreate {
    /// 1–128 printable ASCII characters: the keys every create takes.
    static func requestIDProblem(_ requestID: String) -> String? {
        Guardians.requestIDProblem(requestID)
    }

    /// Runs `create`; when a concurrent retry under the same key committed first, answers what `first` reads.
    static func run<Value: Sendable>(
        _ create: () async throws -> Value, first: () async throws -> Value?
    ) async throws -> Value {
        do {
            return try await create()
        } catch let error as PostgresError where error.isUniqueViolation {
            guard let first = try await first() else {
                throw RPCError(.aborted, "Your change could not be confirmed. Please try again.")
            }
            return first
        }
    }

    /// `earlier` when it is what a retry of the same request asks for (`same`); otherwise REQUEST_ID_REUSED.
    static func retried<Value>(_ earlier: Value, same: Bool) throws(RPCError) -> Value {
        guard same else { throw FamilyError.contentRequestIDReused }
        return earlier
    }
}
