import Testing

/// STYLE.md: "SQL lives only in a service's storage files". A reader finds an RPC's SQL in three steps (the
/// proto, the handler, the storage file) only while no rule file writes a statement of its own.
struct SQLPlacementTests {
    @Test func servicesWriteSQLOnlyInStorageAndMigrations() throws {
        let files = try SQLPlacement.serviceFiles()
        let misplaced = files.filter { !SQLPlacement.mayHoldSQL($0.path) }.flatMap { file in
            SQLPlacement.findings(in: file.text).map { "\(file.path) \($0)" }
        }
        #expect(
            misplaced.isEmpty, "SQL outside Storage/ and Migrations/:\n\(misplaced.joined(separator: "\n"))")
        // The scan sees the statements where they belong, so an empty answer above is not a blind scanner's.
        let stored = files.filter {
            $0.path.contains("/Storage/") && !SQLPlacement.findings(in: $0.text).isEmpty
        }
        #expect(stored.count >= 30)
    }

    @Test func aStatementRunFromARuleFileIsFound() {
        let rule = """
            struct Approvals {
                func forget(_ id: String, in tx: PostgresTransaction) async throws {
                    try await tx.query("DELETE FROM family.approval_requests WHERE id = \\(id)::uuid")
                }
            }
            """
        // Twice: the call that runs a statement, and the statement.
        #expect(SQLPlacement.findings(in: rule).map(\.line) == [3, 3])
    }

    @Test func aStatementKeptInALiteralIsFoundWhereverItRuns() {
        let rule = """
            enum Inbox {
                // Posted later by whoever holds a transaction.
                static let unread = \"\"\"
                    -- the recipient's unread notices
                    SELECT count(*) FROM family.notifications
                    WHERE recipient_id = $1 AND read_at IS NULL
                    \"\"\"
                static let touch = "UPDATE family.notifications n SET read_at = now()"
                static let queue = "WITH counter AS (SELECT 1) SELECT * FROM counter"
            }
            """
        #expect(SQLPlacement.findings(in: rule).map(\.line) == [3, 8, 9])
    }

    @Test func commentsProseAndMailAreNotSQL() {
        let rule = """
            /// Runs the SELECT of the page, then an UPDATE … SET in the caller's transaction.
            struct Mail {
                // The outer SELECT's snapshot does not see the UPDATE's effect.
                func body(_ name: String) -> String {
                    \"\"\"
                    Select a new password, \\(name.isEmpty ? "friend" : "\\(name)"): update it today.
                    Delete this email if it was not you.
                    \"\"\"
                }
                let subject = "Update your date of birth"
                /* DELETE FROM family.profiles, in a block comment */
            }
            """
        #expect(SQLPlacement.findings(in: rule).isEmpty)
    }

    @Test func aLiteralInAnInterpolationDoesNotEndTheOneAroundIt() {
        let source = """
            let line = "a \\(flag ? "b" : "c") d"; let sql = "SELECT 1"
            """
        let text = SwiftText(source)
        #expect(text.literals.map(\.text).contains("SELECT 1"))
        #expect(SQLPlacement.findings(in: source).map(\.text) == ["SELECT 1"])
    }
}
