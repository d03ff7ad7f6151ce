import KindredRPC

/// One photo upload on its way into the store: each chunk is sanitized (`PhotoSanitizer`) and what is
/// kept is written to the upload's temporary object at once, so the service holds a chunk, not a photo.
/// UploadPhoto's handler, in order:
///
///     let intake = try await PhotoIntake.begin(key, in: store)
///     for try await request in requests { try await intake.receive(request.chunk) }
///     let photo = try await intake.finish()   // checked whole and sealed: facts and stored size
///     do { try await insertRow(photo) } catch { await intake.abort(); throw error }
///     try await intake.commit()               // if this fails, the row exists and the sweep publishes
///
/// A refusal (INVALID_ARGUMENT with a `PHOTO_…` reason) or a store failure removes the temporary object
/// before it is thrown.
final class PhotoIntake {
    let key: PhotoObjectKey
    private let upload: any PhotoObjectUpload
    private var sanitizer: PhotoSanitizer
    /// Bytes written to the store so far: what was received, less the metadata.
    private(set) var storedByteCount = 0

    private init(key: PhotoObjectKey, upload: any PhotoObjectUpload, maxByteCount: Int) {
        self.key = key
        self.upload = upload
        sanitizer = PhotoSanitizer(maxByteCount: maxByteCount)
    }

    /// Starts the temporary object for `key`.
    static func begin(
        _ key: PhotoObjectKey, in store: any PhotoObjectStore, maxByteCount: Int = PhotoLimits.maxByteCount
    ) async throws(RPCError) -> PhotoIntake {
        do {
            return PhotoIntake(key: key, upload: try await store.beginUpload(key), maxByteCount: maxByteCount)
        } catch {
            throw error.rpcError
        }
    }

    /// Sanitizes the next chunk of the upload and writes what is kept.
    func receive(_ chunk: [UInt8]) async throws(RPCError) {
        let kept: [UInt8]
        do { kept = try sanitizer.consume(chunk) } catch { return try await fail(error.refusal) }
        guard !kept.isEmpty else { return }
        do { try await upload.write(kept) } catch { return try await fail(error.rpcError) }
        storedByteCount += kept.count
    }

    /// Checks that the photo arrived whole and makes its bytes durable; call before the row commits.
    func finish() async throws(RPCError) -> StoredPhoto {
        let facts: PhotoFacts
        do { facts = try sanitizer.finish() } catch { return try await fail(error.refusal) }
        do { try await upload.seal() } catch { return try await fail(error.rpcError) }
        return StoredPhoto(key: key, facts: facts, byteCount: storedByteCount)
    }

    /// Publishes the bytes under the key; call after the row committed.
    func commit() async throws(RPCError) {
        do { try await upload.commit() } catch { throw error.rpcError }
    }

    /// Removes the temporary object: the row did not commit.
    func abort() async {
        await upload.abort()
    }

    private func fail<Value>(_ error: RPCError) async throws(RPCError) -> Value {
        await upload.abort()
        throw error
    }
}

/// A photo whose bytes are checked, stripped and sealed: what its database row records.
struct StoredPhoto: Equatable, Sendable {
    let key: PhotoObjectKey
    let facts: PhotoFacts
    /// The size of the stored (sanitized) bytes.
    let byteCount: Int
}
