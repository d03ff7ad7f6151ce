import KindredPostgres

extension FamilyMigrations {
    /// What UploadPhoto needs beyond migration 17: the request_id a retry is answered by (unique per uploader
    /// and profile), the file name the app gave (display only), and the index ListPhotos pages by (photo ids
    /// are UUIDv7, so newest first is photo_id descending).
    static let v18GalleryUploads = Migration(
        version: 18, name: "gallery_uploads",
        sql: """
            ALTER TABLE family.baby_photos
                ADD COLUMN request_id text NOT NULL,
                ADD COLUMN file_name text NOT NULL DEFAULT '';
            CREATE UNIQUE INDEX baby_photos_request ON family.baby_photos (profile_id, uploaded_by, request_id);
            CREATE INDEX baby_photos_newest ON family.baby_photos (profile_id, photo_id DESC);
            """)
}
