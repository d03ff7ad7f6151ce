import KindredPostgres

extension FamilyMigrations {
    /// `CreateBabyProfile`'s idempotency keys no longer cascade from the profile: they are keyed by the creating
    /// user (`user_id, request_id`), the profile by its own id, so under Citus the two live on different shards
    /// and a foreign key between them cannot be kept (deploy/citus). The retention purge, the one place a profile
    /// row is deleted, deletes its keys in the same statement instead (`BabyRetentionStore.purge`).
    static let v24UnlinkProfileRequests = Migration(
        version: 24, name: "unlink_profile_requests",
        sql: """
            ALTER TABLE family.baby_profile_requests DROP CONSTRAINT baby_profile_requests_profile_id_fkey;
            """)
}
