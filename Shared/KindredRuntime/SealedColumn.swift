/// One sealed column as `keys rotate-data` walks it (`ServiceCommand.rotateData`): batch by batch in key order,
/// each batch re-sealing under the current data key, in one transaction, the values sealed under another key
/// or still plaintext from before sealing began. A value is re-sealed only if it did not change since it was
/// read, so a rotation run twice, or in two places at once, seals nothing twice, and the service serves
/// throughout: every older key stays in the keyring until the rotation has finished.
public protocol SealedColumn: Sendable {
    /// Where a batch starts: the key of the last row of the batch before.
    associatedtype Cursor: Sendable

    /// What the column holds, for the log and the command's output (e.g. "message bodies").
    var name: String { get }

    /// Re-seals the stale values among the rows after `cursor` (nil: from the first row); how many it
    /// re-sealed, and the cursor of the next batch (nil when this batch was the last).
    func resealBatch(after cursor: Cursor?) async throws -> (resealed: Int, next: Cursor?)
}

extension SealedColumn {
    /// Walks the whole column; how many values it re-sealed.
    public func resealAll() async throws -> Int {
        var cursor: Cursor?
        var resealed = 0
        repeat {
            let batch = try await resealBatch(after: cursor)
            resealed += batch.resealed
            cursor = batch.next
        } while cursor != nil
        return resealed
    }
}
