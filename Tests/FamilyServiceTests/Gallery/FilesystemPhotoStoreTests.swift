@testable import FamilyService
import Foundation
import KindredRPC
import KindredThreads
import Synchronization
import Testing

/// The filesystem object store: uploads invisible until committed, and a sweep that leaves neither a
/// photo without bytes nor bytes without a photo.
@Suite struct FilesystemPhotoStoreTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-photos-\(UUID())").path
    var store: FilesystemPhotoStore { FilesystemPhotoStore(root: root) }
    static let profile = BabyProfileID(UUID())

    static func key() -> PhotoObjectKey { PhotoObjectKey(profile: profile, photo: PhotoID(UUID())) }

    static func readAll(_ reader: any PhotoObjectReader) async throws -> (bytes: [UInt8], chunks: [Int]) {
        var bytes: [UInt8] = []
        var chunks: [Int] = []
        while let chunk = try await reader.next() {
            bytes += chunk
            chunks.append(chunk.count)
        }
        return (bytes, chunks)
    }

    /// Uploads `bytes` in chunks through the sanitizer's path: write, seal, and commit unless told not to.
    @discardableResult
    func upload(_ bytes: [UInt8], to key: PhotoObjectKey, commit: Bool = true) async throws
        -> any PhotoObjectUpload
    {
        let upload = try await store.beginUpload(key)
        for start in stride(from: 0, to: bytes.count, by: 100_000) {
            try await upload.write(Array(bytes[start..<min(start + 100_000, bytes.count)]))
        }
        try await upload.seal()
        if commit { try await upload.commit() }
        return upload
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    @Test func aSanitizedUploadIsCommittedUnderItsKeyAndReadBackInChunks() async throws {
        defer { cleanUp() }
        let key = Self.key()
        var sanitizer = PhotoSanitizer()
        let upload = try await store.beginUpload(key)
        let photo = PhotoFixtures.jpegWithMetadata()
        var stored: [UInt8] = []
        for start in stride(from: 0, to: photo.count, by: 100) {
            let chunk = try sanitizer.consume(Array(photo[start..<min(start + 100, photo.count)]))
            stored += chunk
            try await upload.write(chunk)
        }
        _ = try sanitizer.finish()
        #expect(try await store.open(key, chunkSize: 64) == nil)  // written, not yet committed: invisible
        try await upload.commit()
        let reader = try #require(try await store.open(key, chunkSize: 64))
        #expect(reader.byteCount == stored.count)
        let (bytes, chunks) = try await Self.readAll(reader)
        #expect(bytes == stored && chunks.allSatisfy { $0 <= 64 })
        #expect(FileManager.default.fileExists(atPath: "\(root)/\(key.profileName)/\(key.photoName)"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(key.profileName)") == [
                key.photoName
            ])
    }

    @Test func anUploadACrashInterruptedIsInvisibleAndSweptOnlyAfterTheGracePeriod() async throws {
        defer { cleanUp() }
        let key = Self.key()
        // The process dies after writing, before any row: no commit, no abort.
        try await upload(Array(repeating: 7, count: 250_000), to: key, commit: false)
        #expect(try await store.open(key, chunkSize: 1 << 16) == nil)
        let early = try await store.sweepOrphans(olderThan: .seconds(3600)) { _ in [] }
        #expect(early == PhotoSweep())  // it may still be an upload in flight
        #expect(FileManager.default.fileExists(atPath: store.temporaryPath(of: key)))
        let late = try await store.sweepOrphans(olderThan: .zero) { _ in [] }
        #expect(late == PhotoSweep(removedObjects: 0, removedTemporaries: 1, committedTemporaries: 0))
        #expect(!FileManager.default.fileExists(atPath: store.temporaryPath(of: key)))
    }

    @Test func aRowThatCommittedBeforeTheCrashGetsItsBytesPublishedByTheSweep() async throws {
        defer { cleanUp() }
        let key = Self.key()
        let bytes = (0..<300_000).map { UInt8($0 % 251) }
        try await upload(bytes, to: key, commit: false)  // sealed, the row committed, then the crash
        let sweep = try await store.sweepOrphans(olderThan: .seconds(3600)) { keys in
            Set(keys.filter { $0 == key })
        }
        #expect(sweep == PhotoSweep(removedObjects: 0, removedTemporaries: 0, committedTemporaries: 1))
        let reader = try #require(try await store.open(key, chunkSize: 1 << 16))
        #expect(try await Self.readAll(reader).bytes == bytes)
    }

    @Test func theSweepRemovesObjectsNoRowNamesAndKeepsTheRestAndForeignFiles() async throws {
        defer { cleanUp() }
        let (kept, orphan) = (Self.key(), Self.key())
        try await upload([1, 2, 3], to: kept)
        // Its row was deleted, then the process died before the bytes were.
        try await upload([4, 5, 6], to: orphan)
        FileManager.default.createFile(
            atPath: "\(root)/\(Self.profile)/notes.txt", contents: Data())
        let sweep = try await store.sweepOrphans(olderThan: .zero) { keys in Set(keys.filter { $0 == kept }) }
        #expect(sweep == PhotoSweep(removedObjects: 1, removedTemporaries: 0, committedTemporaries: 0))
        #expect(try await store.open(orphan, chunkSize: 16) == nil)
        let reader = try #require(try await store.open(kept, chunkSize: 16))
        #expect(try await Self.readAll(reader).bytes == [1, 2, 3])
        #expect(
            FileManager.default.fileExists(
                atPath: "\(root)/\(Self.profile)/notes.txt"))
    }

    @Test func theSweepAsksAboutKeysInBatches() async throws {
        defer { cleanUp() }
        let directory = "\(root)/\(Self.profile)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for _ in 0..<1_001 {
            FileManager.default.createFile(
                atPath: "\(directory)/\(UUID().uuidString.lowercased())", contents: Data())
        }
        let batches = Mutex<[Int]>([])
        let sweep = try await store.sweepOrphans(olderThan: .zero) { keys in
            batches.withLock { $0.append(keys.count) }
            return Set(keys)
        }
        #expect(sweep == PhotoSweep())
        #expect(batches.withLock { $0 } == [500, 500, 1])
    }

    @Test func abortAndDeleteLeaveNothingBehind() async throws {
        defer { cleanUp() }
        let (aborted, deleted) = (Self.key(), Self.key())
        let upload = try await store.beginUpload(aborted)
        try await upload.write([9, 9, 9])
        await upload.abort()
        try await self.upload([1], to: deleted)
        try await store.delete(deleted)
        try await store.delete(deleted)  // a second delete finds nothing, and that is fine
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: "\(root)/\(Self.profile)"
            ).isEmpty)
    }

    /// Holds the one thread of `pool` while `body` runs, and answers whether `body` finished before the hold
    /// ended: anything `body` sent to the pool waited behind it, and the hold ends by itself after 10 s.
    static func whileHolding<Value: Sendable>(
        _ pool: BlockingThreadPool, _ body: () async throws -> Value
    ) async throws -> (value: Value, finishedWhileHeld: Bool) {
        let release = DispatchSemaphore(value: 0)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await pool.run {
                start.yield()
                return release.wait(timeout: .now() + 10) == .success
            }
        }
        for await _ in started { break }
        let value = try await body()
        release.signal()
        return (value, try await holder.value)
    }

    @Test func aPhotoWithinOneChunkIsReadInTheTripThatOpensIt() async throws {
        defer { cleanUp() }
        let key = Self.key()
        let bytes = (0..<330).map { UInt8($0 % 251) }
        try await upload(bytes, to: key)
        let pool = BlockingThreadPool(name: "test-pool", limit: 1, maxQueued: 8)
        let store = FilesystemPhotoStore(root: root, threads: pool)
        let reader = try #require(try await store.open(key, chunkSize: 1 << 20))
        // Every byte and the end, with the pool's one thread held: no trip to it after the open.
        let (read, finishedWhileHeld) = try await Self.whileHolding(pool) { try await Self.readAll(reader) }
        #expect(read.bytes == bytes && read.chunks == [330])
        #expect(finishedWhileHeld)
    }

    @Test func aLongerPhotoTakesATripAChunkAfterTheFirstAndNoneToFindItsEnd() async throws {
        defer { cleanUp() }
        let key = Self.key()
        let bytes = (0..<200).map { UInt8($0) }
        try await upload(bytes, to: key)
        let pool = BlockingThreadPool(name: "test-pool", limit: 1, maxQueued: 8)
        let store = FilesystemPhotoStore(root: root, threads: pool)
        let reader = try #require(try await store.open(key, chunkSize: 100))
        let (first, firstWhileHeld) = try await Self.whileHolding(pool) { try await reader.next() }
        #expect(first == Array(bytes[..<100]) && firstWhileHeld)
        #expect(try await reader.next() == Array(bytes[100...]))  // a trip: the pool is free
        let (end, endWhileHeld) = try await Self.whileHolding(pool) { try await reader.next() }
        #expect(end == nil && endWhileHeld)
    }

    @Test func theLastBytesGoWithTheSealAndNothingIsAppendedAfterIt() async throws {
        defer { cleanUp() }
        let key = Self.key()
        let upload = try await store.beginUpload(key)
        try await upload.write([1, 2, 3])
        try await upload.seal(after: [4, 5])
        try await upload.seal()  // again: nothing to do
        await #expect(throws: PhotoStoreError.self) { try await upload.seal(after: [6]) }
        await #expect(throws: PhotoStoreError.self) { try await upload.write([6]) }
        try await upload.commit()
        let reader = try #require(try await store.open(key, chunkSize: 64))
        #expect(try await Self.readAll(reader).bytes == [1, 2, 3, 4, 5])
    }

    @Test func anUploadTouchesTheDiskFirstInTheTripThatWritesOrSealsIt() async throws {
        defer { cleanUp() }
        // A pool that takes no work: beginning, and abandoning an upload no byte reached, need none.
        let idle = FilesystemPhotoStore(
            root: root, threads: BlockingThreadPool(name: "test-pool", limit: 1, maxQueued: 0))
        try await idle.beginUpload(Self.key()).abort()
        #expect(!FileManager.default.fileExists(atPath: root))
        // The file, its profile's directory and the bytes come in the one trip that seals them.
        let key = Self.key()
        let upload = try await store.beginUpload(key)
        #expect(!FileManager.default.fileExists(atPath: store.temporaryPath(of: key)))
        try await upload.seal(after: [1, 2, 3])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.temporaryPath(of: key))) == Data([1, 2, 3]))
        try await upload.commit()
        let reader = try #require(try await store.open(key, chunkSize: 64))
        #expect(try await Self.readAll(reader).bytes == [1, 2, 3])
    }

    @Test func anEmptyObjectEndsAtOnce() async throws {
        defer { cleanUp() }
        let key = Self.key()
        try await upload([], to: key)
        let reader = try #require(try await store.open(key, chunkSize: 64))
        #expect(reader.byteCount == 0)
        #expect(try await reader.next() == nil)
    }

    @Test func everyBlockingCallGoesThroughTheIOThreadsAndABusyPoolAnswersUnavailable() async throws {
        defer { cleanUp() }
        // A pool that takes no work: any call that would have touched the disk elsewhere (an event loop,
        // the cooperative pool) would succeed here instead of answering busy.
        let store = FilesystemPhotoStore(
            root: root, threads: BlockingThreadPool(name: "test-pool", limit: 1, maxQueued: 0))
        let upload = try await store.beginUpload(Self.key())  // the file waits for the first bytes
        let error = await #expect(throws: PhotoStoreError.self) { try await upload.write([1]) }
        #expect(error?.rpcError.code == .unavailable)
        await #expect(throws: PhotoStoreError.self) { try await upload.seal() }  // the upload ended with it
        await upload.abort()
        await #expect(throws: PhotoStoreError.self) { try await store.open(Self.key(), chunkSize: 1) }
        await #expect(throws: PhotoStoreError.self) { try await store.delete(Self.key()) }
        #expect(!FileManager.default.fileExists(atPath: root))
    }
}
