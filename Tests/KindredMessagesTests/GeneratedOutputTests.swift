import Foundation
import KindredTestSupport
import Testing

/// The committed output of proto/generate must be what it produces now: the generated code, and the API
/// reference pages, whose refusals are read from the Swift sources (a new refusal fails this until regenerated).
@Suite struct GeneratedOutputTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let ownedDirectories = [
        "Shared/CKindredProto/include", "Shared/CKindredProto/generated", "Shared/KindredMessages/Generated",
        "Shared/KindredAPI/Generated",
    ]
    static let ownedFiles = [
        "Services/Identity/API.md", "Services/Family/API.md", "Services/Social/API.md",
        "Services/Gamification/API.md",
    ]

    @Test func committedGeneratedCodeIsNotStale() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kindred-generate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: output) }
        let (status, log) = try await Subprocess.run([
            Self.repository.appendingPathComponent("proto/generate").path, output.path,
        ])
        try #require(status == 0, "proto/generate failed: \(log)")
        for directory in Self.ownedDirectories {
            let fresh = try Self.contents(of: output.appendingPathComponent(directory))
            let committed = try Self.contents(of: Self.repository.appendingPathComponent(directory))
            #expect(fresh.keys.sorted() == committed.keys.sorted(), "files in \(directory)")
            for (path, data) in fresh where committed[path] != data {
                Issue.record("\(directory)/\(path) is stale: run proto/generate")
            }
        }
        for file in Self.ownedFiles {
            let fresh = try Data(contentsOf: output.appendingPathComponent(file))
            let committed = try? Data(contentsOf: Self.repository.appendingPathComponent(file))
            if committed != fresh { Issue.record("\(file) is stale: run proto/generate") }
        }
    }

    /// The generator's own tests (proto/plugin/tests: the refusal scanner reads what it should and fails on
    /// what it cannot read; a handler reaches the refusals of what it calls).
    @Test func pluginTestsPass() async throws {
        let plugin = Self.repository.appendingPathComponent("proto/plugin").path
        let (status, log) = try await Subprocess.run([
            "/usr/bin/env", "-C", plugin, "/usr/bin/python3", "-m", "unittest", "discover", "-s", "tests",
        ])
        #expect(status == 0, "python3 -m unittest discover -s tests, in proto/plugin: \(log)")
    }

    /// Every file under `root`, by relative path.
    static func contents(of root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))] =
                try Data(contentsOf: url)
        }
        return files
    }
}
