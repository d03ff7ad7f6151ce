import LoadTestKit
import Testing

@Suite struct PostgresBackendsTests {
    static let services = ["identity", "family", "social", "gamification"]

    // A backend's process title names its role; PostgreSQL's own processes and strangers work for no service.
    @Test(
        arguments: [
            ("postgres: kindred_family kindred [local] idle", "family"),
            ("postgres: kindred_social kindred 127.0.0.1(51234) SELECT\0\0\0", "social"),
            ("postgres: main: kindred_gamification kindred [local] idle in transaction", "gamification"),
            ("postgres:\0kindred_identity\0kindred\0[local]\0COMMIT", "identity"),
            ("postgres: walwriter", nil),
            ("postgres: autovacuum worker kindred", nil),
            ("postgres: postgres kindred [local] idle", nil),
            ("/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/data", nil),
            ("", nil),
        ] as [(String, String?)])
    func aBackendWorksForTheServiceItsRoleEndsWith(commandLine: String, service: String?) {
        #expect(PostgresBackends.service(commandLine: commandLine, among: Self.services) == service)
    }

    @Test func aCostNameGivesBackItsService() {
        #expect(PostgresBackends.service(ofCostName: PostgresBackends.costName(of: "family")) == "family")
        #expect(PostgresBackends.service(ofCostName: "postgresql") == nil)
        #expect(PostgresBackends.service(ofCostName: "family") == nil)
    }
}
