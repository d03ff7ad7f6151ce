-- Kindred's large tables as Citus distributed tables, run once per database on the coordinator after
-- every service has migrated (kindred-<name> migrate) and before the data grows. deploy/citus/README.md says
-- why each table is here; Tests/Deploy/test_citus.py reads this file and checks it against the migrated
-- catalog. Run as a role that may distribute the tables (the owner, or a superuser):
--   psql "$COORDINATOR_URL" -v ON_ERROR_STOP=1 -f deploy/citus/distribute.sql
CREATE EXTENSION IF NOT EXISTS citus;

BEGIN;

-- family: a baby profile and everything inside it, by profile id, on one shard per profile.
SELECT create_distributed_table('family.baby_profiles', 'profile_id', colocate_with => 'none');
SELECT create_distributed_table('family.baby_members', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.baby_activity', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.baby_invitations', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.calendar_events', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.calendar_rsvps', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.baby_comments', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.registry_items', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.baby_photos', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.photo_squishes', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.baby_arrivals', 'profile_id', colocate_with => 'family.baby_profiles');
SELECT create_distributed_table('family.arrival_squishes', 'profile_id', colocate_with => 'family.baby_profiles');
-- CreateBabyProfile's idempotency keys, by the creating user, who looks them up; no foreign key to the profile
-- (family migration 24): the retention purge deletes a profile's keys itself.
SELECT create_distributed_table('family.baby_profile_requests', 'user_id', colocate_with => 'none');
-- The suggestion catalogue: small, read by every profile's page, so a copy on every node.
SELECT create_reference_table('family.baby_suggestions');

-- social: the graph, by the user whose list it is (the one who asked, follows, blocks).
SELECT create_distributed_table('social.people', 'user_id', colocate_with => 'none');
SELECT create_distributed_table('social.friendships', 'user_id', colocate_with => 'social.people');
SELECT create_distributed_table('social.friend_requests', 'sender_id', colocate_with => 'social.people');
SELECT create_distributed_table('social.follows', 'follower_id', colocate_with => 'social.people');
SELECT create_distributed_table('social.blocks', 'blocker_id', colocate_with => 'social.people');

-- gamification: app usage, by user id.
SELECT create_distributed_table('gamification.usage_settings', 'user_id', colocate_with => 'none');
SELECT create_distributed_table('gamification.usage_sessions', 'user_id', colocate_with => 'gamification.usage_settings');
SELECT create_distributed_table('gamification.usage_daily', 'user_id', colocate_with => 'gamification.usage_settings');
-- The popular apps' list: small and read with everyone's usage.
SELECT create_reference_table('gamification.popular_apps');

COMMIT;

-- Not distributable yet, each for the reason given; the test holds this list to exactly what the catalog says.
-- (None today: family.baby_profile_requests lost its foreign key to the profile in family migration 24.)
