@testable import IdentityService
import KindredAPI
import KindredAuth
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Every method of the four services, as server reflection lists them, called by every kind of caller; each
/// cell's answer is derived from the method's row in `MatrixRows` (how to add one: README, "Authorization
/// matrix").
@Suite struct AuthorizationMatrixTests {
    @Test func everyMethodAnswersEveryCallerAsItsRowSays() async throws {
        try await GamificationTestStack.with { stack in
            let matrix = try MatrixServer(clients: [
                Kindred_Identity_V1_IdentityService.serviceName: stack.social.base.identity.rpc,
                Kindred_Family_V1_FamilyService.serviceName: stack.social.family.rpc,
                Kindred_Social_V1_SocialService.serviceName: stack.social.social.rpc,
                Kindred_Gamification_V1_GamificationService.serviceName: stack.gamification.rpc,
            ])
            let rows = try rowsCoveringEveryServedMethod(matrix)
            let run = try await MatrixRun.start(stack, matrix)
            var cells: [MatrixCell] = []
            for row in rows.filter({ !$0.last }) + rows.filter(\.last) {
                cells += try await run.cells(of: row, method: matrix.methods[row.method]!)
            }
            let failures = cells.filter { !$0.passed }
            let kinds = Dictionary(grouping: cells, by: \.expected.description).mapValues(\.count)
            print(
                "Authorization matrix: \(rows.count) methods × \(CallerKind.allCases.count) callers, "
                    + "\(cells.count) cells checked, \(failures.count) failed ("
                    + kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                    + ")")
            for failure in failures { Issue.record(Comment(rawValue: failure.failure)) }
        }
    }

    /// The table's rows, in order, after checking it names exactly the methods reflection lists: a method
    /// added without a row fails here, so every new RPC declares who may call it.
    private func rowsCoveringEveryServedMethod(_ matrix: MatrixServer) throws -> [MatrixRow] {
        let served = Set(matrix.methods.keys)
        let named = MatrixRows.all.map(\.method)
        let withoutRow = served.subtracting(named).sorted()
        let stale = Set(named).subtracting(served).sorted()
        let twice = Dictionary(grouping: named, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(
            withoutRow.isEmpty,
            "served without a row in MatrixRows (declare who may call each): \(withoutRow.joined(separator: ", "))"
        )
        #expect(stale.isEmpty, "rows for methods nobody serves: \(stale.joined(separator: ", "))")
        #expect(twice.isEmpty, "methods with two rows: \(twice.joined(separator: ", "))")
        try #require(served.count > 100, "reflection listed only \(served.count) methods")
        return MatrixRows.all.filter { served.contains($0.method) }
    }
}
