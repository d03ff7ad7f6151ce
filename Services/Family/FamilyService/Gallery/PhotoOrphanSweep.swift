import KindredPostgres
import KindredRuntime
import Logging

/// The gallery's orphan sweep, in every instance at start and then hourly until the drain: it removes bytes
/// no photo row names (a crash before an upload's row committed, or after a delete's), and publishes sealed
/// uploads whose row committed (a crash between the row and the rename). Instances sweeping at once do the
/// same idempotent steps; an upload in flight is safe, as its temporary object is younger than `grace`.
struct PhotoOrphanSweep: Sendable {
    /// Longer than any upload: no upload is allowed to run this long (`uploadDeadline`), so a temporary
    /// object this old belongs to an upload that ended without its row.
    static let grace: Duration = .seconds(3_600)
    /// The longest an UploadPhoto call may run, enforced by the handler.
    static let uploadDeadline: Duration = .seconds(900)

    let database: PostgresPool
    let store: any PhotoObjectStore
    let logger: Logger

    init(context: FamilyContext) {
        database = context.database
        store = context.photos
        logger = context.logger
    }

    /// One pass over the store; temporary objects younger than `grace` are left to their uploads.
    func sweep(olderThan grace: Duration = Self.grace) async throws -> PhotoSweep {
        let database = database
        return try await store.sweepOrphans(olderThan: grace) { keys in
            try await BabyPhotoStore.known(keys, on: database)
        }
    }

    func run() async {
        await runHourly("photo orphan sweep", logger: logger) {
            let done = try await sweep()
            if done != PhotoSweep() {
                logger.info(
                    "photo orphan sweep",
                    metadata: [
                        "removed_objects": "\(done.removedObjects)",
                        "removed_temporaries": "\(done.removedTemporaries)",
                        "published": "\(done.committedTemporaries)",
                    ])
            }
        }
    }
}
