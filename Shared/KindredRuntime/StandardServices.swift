import KindredAPI
import KindredPostgres
import KindredRPC

/// A service's own RPC services plus the ones every Kindred process serves: health and reflection.
struct StandardServices: Sendable {
    /// The health name that is SERVING while the process answers, whatever PostgreSQL does (until the drain):
    /// for liveness probes, which must not restart every instance during a database outage.
    static let livenessName = "liveness"

    let all: [any RPCService]
    /// Every fully-qualified service name served, as health and reflection report them.
    let names: [String]
    private let board: HealthStatusBoard

    init(board: HealthStatusBoard, services: [any RPCService]) {
        var router = RPCRouter()
        let health = HealthService(board: board)
        for service in services + [health] { router.register(service) }
        let names = Set(router.methods.map(\.service)).union([
            Grpc_Reflection_V1_ServerReflection.serviceName,
            Grpc_Reflection_V1alpha_ServerReflection.serviceName,
        ])
        let reflection = ReflectionService(index: ReflectionIndex(servedServices: Array(names)))
        self.all = services + [health, reflection, ReflectionV1AlphaService(v1: reflection)]
        self.names = names.sorted()
        self.board = board
    }

    /// Reports the process (the empty name) and every service as serving or not.
    func markServing(_ serving: Bool) {
        for name in [""] + names { board.set(serving ? .serving : .notServing, for: name) }
    }

    /// Reports the process alive under `livenessName`, which the database never turns NOT_SERVING.
    func markAlive() {
        board.set(.serving, for: Self.livenessName)
    }

    /// Keeps health in step with the database until cancelled: NOT_SERVING while PostgreSQL is unreachable.
    func follow(_ database: PostgresPool) -> Task<Void, Never> {
        Task {
            // The pool logs each change itself.
            for await reachable in database.reachabilityChanges() { markServing(reachable) }
        }
    }
}
