@testable import FamilyService
import Foundation
import KindredTestSupport
@testable import KindredThreads
import Testing

/// An upload aborted while one of its trips to the I/O threads is in flight.
extension FilesystemPhotoStoreTests {
    /// An abort while a trip holds the descriptor leaves it to the trip, which closes it when it comes back; the
    /// abort's removal of the file waits behind it, and nothing goes into the upload after.
    @Test func anAbortDuringATripLeavesTheDescriptorToTheTripThatClosesIt() async throws {
        defer { cleanUp() }
        let pool = BlockingThreadPool(name: "test-pool", limit: 1, maxQueued: 8)
        let store = FilesystemPhotoStore(root: root, threads: pool)
        let key = Self.key()
        let path = store.temporaryPath(of: key)
        let upload = try await store.beginUpload(key)
        try await upload.write([1])
        #expect(Self.descriptors(of: path) == 1)  // open between trips

        // The pool's one thread held: the write's trip, then the abort's removal, wait in its queue.
        let ((writing, aborting), finishedWhileHeld) = try await Self.whileHolding(pool) {
            let writing = Task { try await upload.write([2]) }
            try await eventually("the write's trip holds the descriptor") { pool.queuedCount == 1 }
            let aborting = Task { await upload.abort() }
            try await eventually("the abort's removal waits behind the trip") { pool.queuedCount == 2 }
            #expect(Self.descriptors(of: path) == 1)  // not closed under the trip
            return (writing, aborting)
        }
        #expect(finishedWhileHeld)
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
}
