#if canImport(Glibc)
import Glibc
#endif
import KindredAuth

/// A committed object of a `SealedPhotoStore` being read: segment after segment (`PhotoSegments`) opened as it
/// is reached, handed out in chunks of at most `chunkSize`; or, for an object stored before sealing began, its
/// bytes as they are. It holds a segment and the part of the next one already read.
actor SealedPhotoReader: PhotoObjectReader {
    /// The photo's size: what the segments open to.
    nonisolated let byteCount: Int
    private let key: PhotoObjectKey
    private let plain: any PhotoObjectReader
    private let cipher: FieldCipher
    private let chunkSize: Int
    /// The sealed segments' layout; nil for an object stored before sealing.
    private let layout: (segmentByteCount: Int, segments: Int)?
    /// Stored bytes read and not yet opened, or (plain objects) not yet handed out.
    private var stored: [UInt8]
    private var opened: ArraySlice<UInt8> = []
    private var segment = 0
    private var storedEnded = false

    /// A reader of the object `plain` reads, whose first chunk, `first`, tells whether it is sealed.
    init(
        _ plain: any PhotoObjectReader, first: [UInt8], key: PhotoObjectKey, cipher: FieldCipher,
        chunkSize: Int
    ) {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        self.plain = plain
        self.key = key
        self.cipher = cipher
        self.chunkSize = chunkSize
        stored = first
        if let keyID = FieldCipher.keyID(of: first) {
            let segments = PhotoSegments.count(storedByteCount: plain.byteCount, keyID: keyID)
            layout = (PhotoSegments.sealedByteCount(keyID: keyID), segments)
            byteCount = plain.byteCount - segments * (FieldCipher.sealedByteCount(of: 0, keyID: keyID))
        } else {
            layout = nil
            byteCount = plain.byteCount
        }
    }

    func next() async throws(PhotoStoreError) -> [UInt8]? {
        while opened.isEmpty {
            guard let more = try await nextPiece() else { return nil }
            opened = more[...]
        }
        defer { opened = opened.dropFirst(chunkSize) }
        return Array(opened.prefix(chunkSize))
    }

    /// The next segment opened, or the next stored bytes of a plain object; nil after the last.
    private func nextPiece() async throws(PhotoStoreError) -> [UInt8]? {
        guard let layout else {
            guard stored.isEmpty else {
                defer { stored = [] }
                return stored
            }
            return try await plain.next()
        }
        guard segment < layout.segments else { return nil }
        while stored.count < layout.segmentByteCount, !storedEnded {
            if let chunk = try await plain.next() { stored += chunk } else { storedEnded = true }
        }
        let isLast = segment == layout.segments - 1
        let sealed = Array(stored.prefix(layout.segmentByteCount))
        stored.removeFirst(sealed.count)
        do {
            let context = PhotoSegments.context(of: key, segment: segment, isLast: isLast)
            segment += 1
            return try cipher.open(sealed, context: context)
        } catch {
            throw PhotoStoreError(operation: "unseal (\(error))", path: key.description, code: EBADMSG)
        }
    }
}
