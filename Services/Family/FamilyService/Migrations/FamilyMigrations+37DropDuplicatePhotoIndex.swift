import KindredPostgres

extension FamilyMigrations {
    /// `baby_photos_newest (profile_id, photo_id DESC)` has the primary key's columns, which a B-tree reads in
    /// either direction: the gallery's page walks the key backwards with the same index condition and the same
    /// buffers (14 for a page of 13, `EXPLAIN (ANALYZE, BUFFERS)` of the generic plan), and every upload no
    /// longer writes a third index entry.
    static let v37DropDuplicatePhotoIndex = Migration(
        version: 37, name: "drop_duplicate_photo_index",
        sql: """
            DROP INDEX family.baby_photos_newest;
            """)
}
