import Foundation
import Testing

/// A migration is named by its number and its concern wherever it is written: its file
/// (`FamilyMigrations+07CreateApprovalRequests.swift`), its constant (`v7CreateApprovalRequests`), both read
/// from the version and the name the database records (7, `create_approval_requests`); and each service's
/// list reads those numbers in order. The recorded version and name themselves never change.
struct MigrationNamingTests {
    /// A `Migration(version:name:)` written in a service's `Migrations/` folder.
    struct Declaration: Equatable {
        let constant: String
        let version: Int
        let name: String

        /// The constant and the file suffix its version and recorded name call for.
        var expectedConstant: String { "v\(version)\(Self.camel(name))" }
        var expectedFileSuffix: String {
            "+" + (version < 10 ? "0" : "") + "\(version)\(Self.camel(name)).swift"
        }

        static func camel(_ name: String) -> String {
            name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
    }

    static func declarations(in text: String) -> [Declaration] {
        let declaration = #/static let (\w+) = Migration\(\s*version: (\d+), name: "(\w+)"/#
        return text.matches(of: declaration).map {
            Declaration(constant: String($0.1), version: Int($0.2)!, name: String($0.3))
        }
    }

    /// What is wrong with the names in migration file `path`: one migration per file, its constant and
    /// the file named for its version and recorded name.
    static func namingProblems(path: String, text: String) -> [String] {
        let declared = declarations(in: text)
        guard declared.count == 1 else { return ["\(path): \(declared.count) migrations, not one"] }
        let migration = declared[0]
        var problems: [String] = []
        if migration.constant != migration.expectedConstant {
            problems.append("\(path): \(migration.constant) should be \(migration.expectedConstant)")
        }
        if !path.hasSuffix(migration.expectedFileSuffix) {
            problems.append("\(path): the file should end \(migration.expectedFileSuffix)")
        }
        return problems
    }

    @Test func eachMigrationFileAndConstantSaysItsNumberAndConcern() throws {
        let files = try SQLPlacement.serviceFiles().filter { $0.path.contains("/Migrations/") }
        #expect(files.count >= 15)
        let problems = files.filter { $0.path.contains("+") }.flatMap {
            Self.namingProblems(path: $0.path, text: $0.text)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func eachServiceListsItsMigrationsAsNumbersInOrder() throws {
        let files = try SQLPlacement.serviceFiles().filter { $0.path.contains("/Migrations/") }
        let versions = Dictionary(
            files.flatMap { Self.declarations(in: $0.text) }.map { ($0.constant, $0.version) },
            uniquingKeysWith: { first, _ in first })
        let lists = files.filter { $0.path.hasSuffix("Migrations.swift") }
        #expect(lists.count == 4)
        for list in lists {
            let listed = Self.listedVersions(in: list.text, declared: versions)
            #expect(listed == (0..<listed.count).map { $0 + 1 }, "\(list.path)")
        }
    }

    /// The versions a list holds, in its order; nil for an entry whose version is not known.
    static func listedVersions(in text: String, declared: [String: Int]) -> [Int?] {
        // A declared constant, or a shared module's migration given its version.
        let listEntry = #/^\s*(?:(\w+)|.*\.(?:migration|\w+Migration)\(.*version: (\d+)\)),\s*$/#
        return text.split(separator: "\n").compactMap { $0.wholeMatch(of: listEntry) }.map { entry in
            entry.2.flatMap { Int($0) } ?? entry.1.flatMap { declared[String($0)] }
        }
    }

    @Test func aListOutOfOrderReadsAsSuch() {
        let list = """
            static let all: [Migration] = [
                v1CreateCore,
                EventCursors.migration(schema: "family", version: 3),
                MailOutbox.migration(schema: "family", version: 2),
                MailOutbox.sealingMigration(schema: "family", version: 4),
                createLater,
            ]
            """
        #expect(Self.listedVersions(in: list, declared: ["v1CreateCore": 1]) == [1, 3, 2, 4, nil])
    }

    @Test func aMigrationNamedByConcernAloneIsRefused() {
        let text = #"static let createApprovals = Migration(version: 7, name: "create_approval_requests","#
        #expect(
            Self.namingProblems(path: "FamilyMigrations+Approvals.swift", text: text) == [
                "FamilyMigrations+Approvals.swift: createApprovals should be v7CreateApprovalRequests",
                "FamilyMigrations+Approvals.swift: the file should end +07CreateApprovalRequests.swift",
            ])
        let renamed = text.replacingOccurrences(of: "createApprovals", with: "v7CreateApprovalRequests")
        let path = "FamilyMigrations+07CreateApprovalRequests.swift"
        #expect(Self.namingProblems(path: path, text: renamed).isEmpty)
        #expect(Self.namingProblems(path: path, text: renamed + renamed).count == 1)
    }
}
