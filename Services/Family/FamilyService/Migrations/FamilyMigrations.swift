import KindredPostgres

/// The `family` schema's migrations, in order; each one is shipped once and never edited after release.
enum FamilyMigrations {
    static let all: [Migration] = []
}
