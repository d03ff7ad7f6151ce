/// Which service a PostgreSQL backend works for, so that a run can tell PostgreSQL's CPU apart by the service
/// whose statements spent it. A client backend's command line is its process title, `postgres: <role>
/// <database> <client> <state>` (`postgres: <cluster name>: <role> …` when `cluster_name` is set), and each
/// service connects as a role of its own whose name ends in `_<service>` (`kindred_family`).
public enum PostgresBackends {
    /// The service of `services` the backend with `commandLine` (`/proc/<pid>/cmdline`: its words separated by
    /// NULs or spaces) works for; nil for PostgreSQL's own processes (`postgres: walwriter`, `postgres:
    /// autovacuum worker`) and for a role of none of them.
    public static func service(commandLine: String, among services: [String]) -> String? {
        var words = commandLine.split(whereSeparator: { $0 == " " || $0 == "\0" })[...]
        guard words.popFirst() == "postgres:" else { return nil }
        if words.first?.hasSuffix(":") == true { words = words.dropFirst() }
        guard let role = words.first else { return nil }
        return services.first { role.hasSuffix("_\($0)") }
    }

    /// How a run names PostgreSQL's CPU spent for `service` among its servers' costs.
    public static func costName(of service: String) -> String { "postgresql for \(service)" }

    /// The service `costName(of:)` made `name` from; nil for any other name.
    public static func service(ofCostName name: String) -> String? {
        let prefix = costName(of: "")
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : nil
    }
}
