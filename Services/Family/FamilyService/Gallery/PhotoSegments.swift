import KindredAuth

/// How `SealedPhotoStore` lays out an object: the photo cut into segments of `byteCount` bytes (the last one
/// shorter or equal), each sealed on its own (`FieldCipher`) and bound to the object's key, its index and
/// whether it is the last, so that a segment moved to another object or place, dropped or appended does not
/// open. Every segment of an object is sealed under the same key, so all but the last have one sealed size and
/// a reader finds them by counting: an upload and a download hold a segment or two, never the whole photo.
enum PhotoSegments {
    /// A download chunk's size, so that each segment read is one chunk sent.
    static let byteCount = BabyGallery.chunkSize

    /// What segment `index` of `key`'s object is bound to.
    static func context(of key: PhotoObjectKey, segment index: Int, isLast: Bool) -> String {
        "family.baby_photos.bytes/\(key)/\(index)\(isLast ? "/last" : "")"
    }

    /// The sealed size of a whole segment under the key `keyID`.
    static func sealedByteCount(keyID: String) -> Int {
        FieldCipher.sealedByteCount(of: byteCount, keyID: keyID)
    }

    /// How many segments an object of `storedByteCount` bytes sealed under `keyID` holds.
    static func count(storedByteCount: Int, keyID: String) -> Int {
        let whole = sealedByteCount(keyID: keyID)
        return (storedByteCount + whole - 1) / whole
    }

    /// `photo` sealed whole for `key`, segment after segment (`keys rotate-data` replacing an object).
    static func sealed(_ photo: [UInt8], for key: PhotoObjectKey, with cipher: FieldCipher) -> [UInt8] {
        let starts = Array(stride(from: 0, to: photo.count, by: byteCount))
        var sealed: [UInt8] = []
        sealed.reserveCapacity(
            photo.count + starts.count * (sealedByteCount(keyID: cipher.keyring.current.id) - byteCount))
        for (index, start) in starts.enumerated() {
            sealed += cipher.seal(
                photo[start..<min(start + byteCount, photo.count)],
                context: context(of: key, segment: index, isLast: index == starts.count - 1))
        }
        return sealed
    }
}
