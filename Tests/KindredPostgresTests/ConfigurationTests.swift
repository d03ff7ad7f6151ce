import KindredPostgres
import Testing

@Suite struct Configuration {
    @Test(arguments: [
        "", "postgresql://[::1/db", "host=localhost bogus_option=1", "postgresql://u@h/db?nonsense=1",
    ])
    func anInvalidURLIsRejectedWithAReason(url: String) {
        let error = #expect(throws: PostgresConfigurationError.self) { try PostgresConfiguration(url: url) }
        #expect(error?.description.isEmpty == false)
    }

    @Test func poolSizeAndTimeoutsAreValidated() {
        #expect(throws: PostgresConfigurationError.self) {
            try PostgresConfiguration(url: "postgresql://localhost/db", poolSize: 0)
        }
        #expect(throws: PostgresConfigurationError.self) {
            try PostgresConfiguration(url: "postgresql://localhost/db", connectTimeout: .milliseconds(10))
        }
        #expect(throws: PostgresConfigurationError.self) {
            try PostgresConfiguration(url: "postgresql://localhost/db", statementTimeout: .zero)
        }
    }

    @Test func theRedactedDescriptionNeverShowsThePassword() throws {
        let configuration = try PostgresConfiguration(
            url: "postgresql://svc:s3cret@db.internal:6432/kindred?sslmode=require")
        #expect(configuration.redactedDescription == "postgresql://svc@db.internal:6432/kindred")
    }
}

@Suite struct ErrorCategory {
    @Test(arguments: [
        ("23505", PostgresError.Category.alreadyExists), ("23P01", .alreadyExists),
        ("40001", .retryableConflict),
        ("40P01", .retryableConflict), ("57014", .cancelled), ("08006", .unavailable),
        ("57P01", .unavailable),
        ("53300", .unavailable), ("23502", .other), ("42P01", .other),
    ])
    func eachSQLStateMapsToOneCategory(sqlState: String, category: PostgresError.Category) {
        #expect(PostgresError(kind: .server, sqlState: sqlState, message: "m").category == category)
    }

    @Test func poolFailuresAreUnavailable() {
        #expect(PostgresError(kind: .connectionFailure, message: "m").category == .unavailable)
        #expect(PostgresError(kind: .poolClosed, message: "m").category == .unavailable)
        #expect(PostgresError(kind: .decoding, message: "m").category == .other)
    }
}
