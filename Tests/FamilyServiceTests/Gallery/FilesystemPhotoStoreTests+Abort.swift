@testable import FamilyService
import Foundation
@testable import KindredThreads
import Testing

/// An upload aborted while one of its trips to the I/O threads is in flight.
extension FilesystemPhotoStoreTests {
    /// An abort while a trip holds the descriptor leaves it to the trip, which closes it when it comes back; the
    /// abort's removal of the file waits behind it, and nothing goes into the upload after.
    @Test func anAbortDuringATripLeavesTheDescriptorToTheTripThatClosesIt() async throws {
        defer { cleanUp() }
        let pool = BlockingThreadPool(limit: 1, maxQueued: 8)
        let store = FilesystemPhotoStore(root: root, threads: pool)
        let key = Self.key()
        let path = store.temporaryPath(of: key)
        let upload = try await store.beginUpload(key)
        try await upload.write([1])
        #expect(Self.descriptors(of: path) == 1)  // open between trips

        let release = DispatchSemaphore(value: 0)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await pool.run {
                start.yield()
                _ = release.wait(timeout: .now() + 10)  // a failing test does not hold the thread forever
            }
        }
        for await _ in started { break }
        let writing = Task { try await upload.write([2]) }
        try await Self.until { pool.queuedCount == 1 }  // the write's trip holds the descriptor
        let aborting = Task { await upload.abort() }
        try await Self.until { pool.queuedCount == 2 }  // the abort's removal waits behind the trip
        #expect(Self.descriptors(of: path) == 1)  // not closed under the trip
        release.signal()
        try await holder.value
        _ = await writing.result
        await aborting.value

        #expect(Self.descriptors(of: path) == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
        await #expect(throws: PhotoStoreError.self) { try await upload.write([3]) }
    }

    /// How many of this process's descriptors are open on `path`.
    static func descriptors(of path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.count { entry in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")
            return target == path || target == "\(path) (deleted)"
        }
    }

    /// Waits until `condition` holds, failing after 10 s.
    static func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "never within 10 s")
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
