@testable import FamilyService
import KindredPostgres
import KindredTestSupport

/// A stored notice's title and body from its row's `kind, title, body, text_sealed` (sealed, or plaintext from
/// before sealing), opened with the tests' data keys.
func openedNotice(_ row: PostgresRow, from column: Int = 0) throws -> (kind: Int, title: String, body: String)
{
    let kind = try row.decode(Int.self, column: column)
    let stored = NoticeText.stored(
        title: try row.decode(String?.self, column: column + 1),
        body: try row.decode(String?.self, column: column + 2),
        sealed: try row.decode([UInt8]?.self, column: column + 3))
    let text = NoticeText.split(try NoticeText.sealed(with: TestDataKeys.cipher).open(stored, of: kind))
    return (kind, text.title, text.body)
}
