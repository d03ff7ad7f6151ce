import KindredPostgres

extension GamificationMigrations {
    /// Name suggestions, at most one per person per gender per profile and one per name per profile (by
    /// `name_key`, which folds case, accents and spacing), and each member's like, once per suggestion.
    static let v10CreateBabyNameSuggestions = Migration(
        version: 10, name: "create_baby_name_suggestions",
        sql: """
            CREATE TABLE gamification.baby_name_suggestions (
                profile_id uuid NOT NULL,
                suggestion_id uuid NOT NULL,
                suggested_by uuid NOT NULL,
                gender smallint NOT NULL CHECK (gender IN (1, 2)),
                name text NOT NULL,
                name_key text NOT NULL,
                likes integer NOT NULL DEFAULT 0 CHECK (likes >= 0),
                created_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, suggestion_id),
                UNIQUE (profile_id, name_key),
                UNIQUE (profile_id, suggested_by, gender)
            );
            CREATE INDEX baby_name_suggestions_by_user ON gamification.baby_name_suggestions (suggested_by);

            CREATE TABLE gamification.baby_name_likes (
                profile_id uuid NOT NULL,
                suggestion_id uuid NOT NULL,
                user_id uuid NOT NULL,
                liked_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, suggestion_id, user_id),
                FOREIGN KEY (profile_id, suggestion_id)
                    REFERENCES gamification.baby_name_suggestions ON DELETE CASCADE
            );
            CREATE INDEX baby_name_likes_by_user ON gamification.baby_name_likes (user_id);
            """)
}
