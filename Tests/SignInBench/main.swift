// Sign-in costs, measured (never asserted): `SignInBench argon2` times Argon2id at candidate costs on this
// machine's bounded hashing pool; `SignInBench signin TARGET DATABASE_URL [CLIENTS] [SECONDS]` times the
// Token password grant of a running kindred-identity end to end; `SignInBench access-token TARGET` signs in
// as the first account `signin` seeded and prints its access token, for h2load. Tests/Benchmarks/identity
// runs all three.
// Build with `swift build -c release --product SignInBench`; compare numbers from one run only.

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "argon2":
    await Argon2Costs.run(seconds: arguments.dropFirst().first.flatMap(Int.init) ?? 4)
case "signin" where arguments.count >= 3:
    await SignInLatency.run(
        target: arguments[1], databaseURL: arguments[2],
        clients: arguments.dropFirst(3).first.flatMap(Int.init) ?? 4,
        seconds: arguments.dropFirst(4).first.flatMap(Int.init) ?? 10)
case "access-token" where arguments.count == 2:
    await SignInLatency.printAccessToken(target: arguments[1])
default:
    print(
        "usage: SignInBench argon2 [SECONDS] | SignInBench signin TARGET DATABASE_URL [CLIENTS] [SECONDS]"
            + " | SignInBench access-token TARGET")
}
