import Foundation
import KindredHandlers
import KindredMessages
import KindredPostgres
import Testing

/// Page sizes and opaque page tokens, as every list RPC reads them.
@Suite struct PagingTests {
    @Test(arguments: [(0, 50), (1, 1), (7, 7), (500, 500), (501, 500), (Int32.max, 500)])
    func aPageSizeDefaultsToFiftyAndIsCappedAtFiveHundred(asked: Int32, served: Int) {
        var violations = FieldViolations()
        #expect(Paging.size(of: Kindred_Common_V1_PageRequest(pageSize: asked), &violations) == served)
        #expect(violations.violations.isEmpty)
    }

    @Test func noPageIsTheDefaultSizeAndANegativeSizeIsNamed() {
        var violations = FieldViolations()
        #expect(Paging.size(of: nil, &violations) == Paging.defaultSize)
        _ = Paging.size(of: Kindred_Common_V1_PageRequest(pageSize: -1), &violations)
        #expect(violations.violations.map(\.field) == ["page.page_size"])
    }

    @Test func aTokenCarriesItsFieldsAndNoPaddingOrURLUnsafeCharacters() {
        let token = Paging.token("any", "0192f5e0-7c1a-7b3e-8f00-00000000ad01", "é/+?")
        #expect(!token.contains(where: { "+/=".contains($0) }))
        #expect(
            Paging.fields(of: token, count: 3) == ["any", "0192f5e0-7c1a-7b3e-8f00-00000000ad01", "é/+?"])
    }

    @Test(arguments: ["", "garbage!", "bm90IGEgdG9rZW4", Paging.token("a"), Paging.token("a", "b", "c")])
    func anythingButATokenWithThatManyFieldsIsRefused(token: String) {
        #expect(Paging.fields(of: token, count: 2) == nil)
    }

    @Test func anInstantInATokenComesBackToTheMicrosecondPostgreSQLKeeps() {
        let instant = Date(timeIntervalSince1970: 1_795_000_000.123456)
        let read = Paging.instant(Paging.field(instant))
        #expect(read.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) } == 1_795_000_000_123_456)
        #expect(Paging.instant("not an instant") == nil)
    }

    // A page token whose instant was Int64.min microseconds trapped the service when its list bound the
    // instant as a PostgreSQL timestamp: one crafted ListFeed call stopped the whole process.
    @Test(arguments: [Int64.min, Int64.max, -62_135_596_800_000_001, 253_402_300_800_000_000])
    func aTokenInstantBeyondTheYears1To9999IsRefusedInsteadOfTrappingWhenBound(microseconds: Int64) {
        #expect(Paging.instant(String(microseconds)) == nil)
    }

    @Test(arguments: [-62_135_596_800_000_000, 0, 253_402_300_799_999_999] as [Int64])
    func theFirstAndLastInstantsATokenMayCarryAreReadAndBind(microseconds: Int64) throws {
        let instant = try #require(Paging.instant(String(microseconds)))
        var parameter: [UInt8] = []
        #expect(instant.encodePostgres(into: &parameter))
        #expect(parameter.count == 8)
    }
}
