#if canImport(Glibc)
import Glibc
#endif
import KindredAuth

/// An upload to a `SealedPhotoStore`: the sanitized bytes gather into a segment (`PhotoSegments`), and each
/// segment is written sealed to the plain store's temporary object once the next byte shows it is not the last;
/// `seal` hands the last one to the plain store's seal. It holds at most a segment and the chunk in hand.
actor SealedPhotoUpload: PhotoObjectUpload {
    nonisolated let key: PhotoObjectKey
    private let plain: any PhotoObjectUpload
    private let cipher: FieldCipher
    /// Bytes of the segment being gathered; nil once the last segment is written.
    private var pending: [UInt8]? = []
    private var segment = 0

    init(sealingInto plain: any PhotoObjectUpload, with cipher: FieldCipher) {
        key = plain.key
        self.plain = plain
        self.cipher = cipher
    }

    func write(_ bytes: [UInt8]) async throws(PhotoStoreError) {
        guard var gathered = pending else {
            throw PhotoStoreError(operation: "write after seal", path: key.description, code: EBADF)
        }
        pending = nil
        gathered += bytes
        var written = 0
        // Only whole segments with a byte after them: the last segment is sealed as the last, in `seal`.
        while gathered.count - written > PhotoSegments.byteCount {
            try await writeSegment(gathered[written..<written + PhotoSegments.byteCount], isLast: false)
            written += PhotoSegments.byteCount
        }
        gathered.removeFirst(written)
        pending = gathered
    }

    /// The last segment goes to the plain store with its seal: one step there.
    func seal(after last: [UInt8]) async throws(PhotoStoreError) {
        if !last.isEmpty { try await write(last) }
        guard let final = pending else { return try await plain.seal() }
        pending = nil
        try await plain.seal(after: sealedSegment(final[...], isLast: true))
    }

    func commit() async throws(PhotoStoreError) {
        try await seal()
        try await plain.commit()
    }

    func abort() async {
        pending = nil
        await plain.abort()
    }

    private func writeSegment(_ bytes: ArraySlice<UInt8>, isLast: Bool) async throws(PhotoStoreError) {
        try await plain.write(sealedSegment(bytes, isLast: isLast))
    }

    /// The next segment, sealed.
    private func sealedSegment(_ bytes: ArraySlice<UInt8>, isLast: Bool) -> [UInt8] {
        let context = PhotoSegments.context(of: key, segment: segment, isLast: isLast)
        segment += 1
        return cipher.seal(bytes, context: context)
    }
}
