import KindredPostgres
import KindredRPC
import Testing

@testable import KindredRuntime

@Suite struct PostgresErrorMappingTests {
    @Test(arguments: [
        ("23505", StatusCode.alreadyExists), ("40001", .aborted), ("40P01", .aborted),
        ("57014", .deadlineExceeded),
        ("08006", .unavailable), ("57P01", .unavailable), ("42P01", .internal), ("22P02", .internal),
    ])
    func serverErrorsMapBySQLState(sqlState: String, code: StatusCode) {
        let error = PostgresError(
            kind: .server, sqlState: sqlState, message: "failed", serverDetail: "secret detail")
        #expect(error.rpcError.code == code)
        #expect(!error.rpcError.message.contains("secret"))
    }

    @Test func anUnreachableDatabaseIsUnavailable() {
        let error = PostgresError(
            kind: .connectionFailure, message: "down", serverDetail: "connection refused")
        #expect(error.rpcError.code == .unavailable)
    }
}
