import KindredPostgres

extension FamilyMigrations {
    /// A baby profile's photos, their squishes, and the arrival announcement; keyed by profile id first. A
    /// photo row is committed before its bytes are published in the object store (`PhotoObjectStore`), so a
    /// crash leaves at most bytes no row names, which the orphan sweep removes.
    static let v17CreateGallery = Migration(
        version: 17, name: "create_gallery",
        sql: """
            CREATE TABLE family.baby_photos (
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                photo_id uuid NOT NULL,
                uploaded_by uuid NOT NULL,
                caption text NOT NULL DEFAULT '',
                -- 'image/jpeg' or 'image/png', as the bytes said; never a name or a declared type.
                media_type text NOT NULL,
                width integer NOT NULL CHECK (width > 0),
                height integer NOT NULL CHECK (height > 0),
                byte_count bigint NOT NULL CHECK (byte_count > 0),
                -- Kept current with family.photo_squishes, in the squish's transaction.
                squish_count integer NOT NULL DEFAULT 0 CHECK (squish_count >= 0),
                created_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, photo_id)
            );

            -- One squish per person per photo; the count is on the photo's row.
            CREATE TABLE family.photo_squishes (
                profile_id uuid NOT NULL,
                photo_id uuid NOT NULL,
                user_id uuid NOT NULL,
                squished_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, photo_id, user_id),
                FOREIGN KEY (profile_id, photo_id) REFERENCES family.baby_photos ON DELETE CASCADE
            );

            -- The arrival announcement: at most one per profile; owners correct it afterwards.
            CREATE TABLE family.baby_arrivals (
                profile_id uuid PRIMARY KEY REFERENCES family.baby_profiles ON DELETE CASCADE,
                announced_by uuid NOT NULL,
                birth_date date NOT NULL,
                -- Optional details: time of birth as the parents' local wall time, weight, length, a photo of
                -- the gallery, and a message.
                birth_time time,
                weight_grams integer CHECK (weight_grams > 0),
                length_mm integer CHECK (length_mm > 0),
                photo_id uuid,
                message text NOT NULL DEFAULT '',
                squish_count integer NOT NULL DEFAULT 0 CHECK (squish_count >= 0),
                announced_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL
            );

            CREATE TABLE family.arrival_squishes (
                profile_id uuid NOT NULL REFERENCES family.baby_arrivals ON DELETE CASCADE,
                user_id uuid NOT NULL,
                squished_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, user_id)
            );
            """)
}
