import ArgumentParser
import Foundation
import LoadTestKit

/// The options of a run, shared by `run` and `knee` (which sets `--rate` itself, step by step).
struct RunOptions: ParsableArguments {
    @Option(help: "Virtual users (the first N seeded users).")
    var users = 1_000

    @Option(help: "Seconds of load after the ramp-up; no call is sent after them.")
    var duration = 60

    @Option(help: "Seconds over which users start, evenly (each resumes its session and opens its stream).")
    var rampUp = 10

    @Option(help: "Open loop: calls a second, spread over the users, each timed from when it was due.")
    var rate: Double?

    @Option(
        help: """
            RATE,FROM,FOR: the open loop at RATE calls a second from FROM seconds into the load for FOR \
            seconds, at --rate before and after; the report says how each part was served and how many \
            seconds after the surge the run was back within --recovery-budget-ms, 5 seconds in a row.
            """,
        transform: { argument in
            guard let surge = RateSurge(argument: argument) else {
                throw ValidationError(
                    "--surge takes RATE,FROM,FOR: a positive rate, then seconds (2400,20,60).")
            }
            return surge
        })
    var surge: RateSurge?

    @Option(
        help: """
            With --surge: a second is within budget when its answered calls' p99 is within this many ms \
            and at most 1% of its calls were shed or failed.
            """)
    var recoveryBudgetMs = 100.0

    @Option(
        help: """
            Each call's deadline in seconds, from its due time (the stack's budget); calls still running \
            this long after --duration are cancelled and the run reports.
            """)
    var deadline = 2.0

    @Option(
        help: "Closed loop: mean think time between a user's calls, in seconds (uniform, 0.5 to 1.5 times).")
    var think = 2.0

    @Option(help: "Users sharing one HTTP/2 connection to each service, as a gateway multiplexes them.")
    var usersPerConnection = 100

    @Option(
        help:
            """
            Each connection's clients throttle themselves as Google's SRE book describes once a service refuses \
            calls for overload, sending it about K calls for each it accepts (ClientThrottle; 2 in the book); \
            0: every call is sent.
            """)
    var clientThrottle = 0.0

    @Option(
        help:
            """
            Event loops the users run on, each doing its users' calls, streams and bookkeeping on one thread, \
            so that no call crosses threads. 0: Swift's cooperative pool, at about half again the tool's CPU, \
            which keeps the schedule better where other work crowds the cores (Tests/LoadTest/README.md).
            """)
    var threads = 1

    @Flag(
        help: """
            Users hold no stream: the run measures the calls alone, and its figures set beside a run with \
            streams tell what the real-time deliveries cost each process.
            """)
    var withoutStreams = false

    @Option(help: "The seed file `seed` wrote.")
    var seedFile = "var/loadtest/seed.json"

    @Option(help: "identity=HOST:PORT,family=…,social=…,gamification=…")
    var targets = ServiceTargets()

    @Option(
        help:
            "A JSON file of each persona's actions and weights (Tests/LoadTest/mix.json is the standard mix)."
    )
    var mix: String?

    @Option(
        help: "PostgreSQL's port on this host, for its CPU time per call in the report (0: leave it out).")
    var postgresPort = 55_400

    func validate() throws {
        guard users >= 1 else { throw ValidationError("--users must be at least 1.") }
        guard duration >= 1 else { throw ValidationError("--duration must be at least 1 second.") }
        guard rampUp >= 0 else { throw ValidationError("--ramp-up cannot be negative.") }
        guard postgresPort >= 0 else { throw ValidationError("--postgres-port cannot be negative.") }
        guard think > 0 else { throw ValidationError("--think must be more than 0 seconds.") }
        guard deadline > 0, deadline.isFinite else {
            throw ValidationError("--deadline must be more than 0 seconds.")
        }
        guard clientThrottle >= 0, clientThrottle.isFinite else {
            throw ValidationError("--client-throttle cannot be negative.")
        }
        guard threads >= 0 else { throw ValidationError("--threads cannot be negative.") }
        guard usersPerConnection >= 1 else {
            throw ValidationError("--users-per-connection must be at least 1.")
        }
        if let rate, ArrivalSchedule(callsPerSecond: rate) == nil {
            throw ValidationError("--rate must be a positive number of calls a second.")
        }
        if let surge {
            guard rate != nil else {
                throw ValidationError(
                    "--surge changes a run's open-loop --rate: give both (knee steps its own).")
            }
            guard surge.until < .seconds(duration) else {
                throw ValidationError(
                    "--surge must end before --duration does, so that the run sees what follows.")
            }
        }
        guard recoveryBudgetMs > 0, recoveryBudgetMs.isFinite else {
            throw ValidationError("--recovery-budget-ms must be positive.")
        }
    }

    /// The open loop's timetable: `--rate`, with `--surge` in it when given; nil for the closed loop.
    var schedule: ArrivalSchedule? {
        rate.flatMap { ArrivalSchedule(callsPerSecond: $0, surge: surge) }
    }

    var callDeadline: Duration { .seconds(deadline) }

    /// The standard mix, or the one `--mix` names.
    func loadMix() throws -> Mix {
        guard let mix else { return .standard }
        guard let data = FileManager.default.contents(atPath: mix) else {
            throw ToolError("No mix file at \(mix): name a JSON file like Tests/LoadTest/mix.json.")
        }
        do {
            return try Mix(json: data)
        } catch {
            throw ToolError("\(mix): \(error.description)")
        }
    }
}
