import KindredTestSupport
import Synchronization
import Testing

@testable import KindredRPC

@Suite(.timeLimit(.minutes(1))) struct ClientBalancingTests {
    static let echo = ClientTestService.method("Echo")

    @Test func callsSpreadOverEveryAddressOfTheName() async throws {
        try await onClientTestLoop {
            let fleet = try LoopbackFleet(["127.0.0.2", "127.0.0.3", "127.0.0.4"])
            let client = try balancingClient(ScriptedResolver(fleet.addresses), port: fleet.port)
            let calls = 300
            for index in 0..<calls {
                let reply: ClientTestText = try await client.unary(
                    method: Self.echo, request: ClientTestText("\(index)"))
                #expect(reply.text == "\(index)")
            }
            // Round robin over three ready addresses: a third each, give or take the first calls made while
            // the connections were being opened.
            #expect(fleet.served.reduce(0, +) == calls)
            for served in fleet.served {
                #expect(served >= calls / 3 - 10, "served per address: \(fleet.served)")
            }
            // The client's own count of where its calls went is what each instance answered.
            let counted = await client.callsPerAddress()
            #expect(
                counted
                    == Dictionary(uniqueKeysWithValues: zip(fleet.addresses.map(\.description), fleet.served))
            )
            client.close()
            await fleet.stop()
        }
    }

    /// The instances age their connections out after about a second: each GOAWAY makes the client resolve the
    /// name again, so it finds the fourth instance without waiting for the hour-long resolve interval.
    @Test func callsReachAFourthInstanceThroughTheMaximumConnectionAgeWithoutAFailedCall() async throws {
        try await onClientTestLoop {
            let shortAge: (inout ServerConfiguration) -> Void = {
                $0.maxConnectionAge = .seconds(1)
                $0.maxConnectionAgeGrace = .seconds(2)
            }
            var fleet = try LoopbackFleet(["127.0.0.2", "127.0.0.3", "127.0.0.4"], configure: shortAge)
            let resolver = ScriptedResolver(fleet.addresses)
            let client = try balancingClient(resolver, port: fleet.port)
            let failures = CallFailures()
            let firstThree = fleet.servers
            await Self.call(client, callers: 8, failures: failures) {
                firstThree.allSatisfy { $0.observations.unaryCalls.load(ordering: .relaxed) >= 20 }
            }
            try fleet.add("127.0.0.5", configure: shortAge)
            resolver.answer(fleet.addresses)
            let fourth = fleet.servers[3]
            await Self.call(client, callers: 8, failures: failures) {
                fourth.observations.unaryCalls.load(ordering: .relaxed) >= 50
            }
            #expect(failures.all == [], "served per address: \(fleet.served)")
            client.close()
            await fleet.stop()
        }
    }

    @Test func anAddressThatRefusesConnectionsIsAvoidedWithoutAFailedCall() async throws {
        try await onClientTestLoop {
            let fleet = try LoopbackFleet(["127.0.0.2"])
            // Nothing listens on 127.0.0.6: its connects are refused. It comes first in the answer.
            let refusing = ResolvedAddress(numericHost: "127.0.0.6", port: UInt16(fleet.port))!
            let client = try balancingClient(ScriptedResolver([refusing] + fleet.addresses), port: fleet.port)
            for index in 0..<50 {
                let reply: ClientTestText = try await client.unary(
                    method: Self.echo, request: ClientTestText("\(index)"))
                #expect(reply.text == "\(index)")
            }
            #expect(fleet.served == [50])
            client.close()
            await fleet.stop()
        }
    }

    @Test func aNameThatDoesNotResolveFailsUnavailable() async throws {
        try await onClientTestLoop {
            let client = try balancingClient(ScriptedResolver([]), port: 1)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(method: Self.echo, request: ClientTestText())
            }
            #expect(error?.code == .unavailable)
            client.close()
        }
    }

    /// `callers` tasks make unary calls one after another until `done` holds after one of them; every error
    /// is recorded.
    static func call(
        _ client: RPCClient, callers: Int, failures: CallFailures, until done: @escaping @Sendable () -> Bool
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for caller in 0..<callers {
                group.addTask(executorPreference: clientTestLoop) {
                    var index = 0
                    repeat {
                        do throws(RPCError) {
                            let _: ClientTestText = try await client.unary(
                                method: echo, request: ClientTestText("\(caller)-\(index)"))
                        } catch {
                            failures.record(error)
                        }
                        index += 1
                    } while !done()
                }
            }
        }
    }
}
