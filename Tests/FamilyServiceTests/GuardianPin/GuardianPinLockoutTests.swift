@testable import FamilyService
import Foundation
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

/// Three wrong PINs in a row lock the PIN for 15 minutes, counted in the database under the PIN row's lock.
@Suite struct GuardianPinLockoutTests {
    /// Starting on a whole second, and on clocks whose readings fall between the microseconds the database keeps.
    @Test(arguments: [1_781_000_000, 1_781_000_000.123_456_7, 1_781_000_000.999_999_6])
    func threeWrongPinsLockForFifteenMinutesToTheSecond(start: Double) async throws {
        try await PinTest.with(start: Date(timeIntervalSince1970: start)) { test in
            try await test.setPin()
            let pins = test.pins()
            let first = await rpcError {
                try await pins.verify(try test.attempt("1111"), caller: test.guardian)
            }
            let second = await rpcError {
                try await pins.verify(try test.attempt("1112"), caller: test.guardian)
            }
            #expect(first?.code == .permissionDenied && first?.reason == "PIN_INCORRECT")
            #expect(second?.reason == "PIN_INCORRECT")
            let third = await rpcError {
                try await pins.verify(try test.attempt("1113"), caller: test.guardian)
            }
            #expect(third?.code == .resourceExhausted && third?.reason == "PIN_LOCKED")
            #expect(third?.retryDelay == .seconds(900))

            test.clock.advance(seconds: 14 * 60 + 59)
            let stillLocked = await rpcError { try await test.session(pin: PinTest.pin) }
            #expect(stillLocked?.code == .resourceExhausted && stillLocked?.reason == "PIN_LOCKED")
            #expect(stillLocked?.retryDelay == .seconds(1))

            test.clock.advance(seconds: 1)
            #expect(try await !test.session().isEmpty)
        }
    }

    @Test func aRightPinStartsTheCountAgain() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let pins = test.pins()
            for wrong in ["1111", "1112"] {
                _ = await rpcError {
                    try await pins.verify(try test.attempt(wrong), caller: test.guardian)
                }
            }
            _ = try await test.session()
            for wrong in ["1111", "1112"] {
                let error = await rpcError {
                    try await pins.verify(try test.attempt(wrong), caller: test.guardian)
                }
                #expect(error?.reason == "PIN_INCORRECT")
            }
            #expect(try await !test.session().isEmpty)
        }
    }

    @Test func concurrentWrongGuessesOnTwoInstancesNeverAllowAFourth() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            try await test.withSecondPool { otherPool in
                let instances = [test.pins(), test.pins(on: otherPool)]
                let answers = await withTaskGroup(of: RPCError?.self) { group in
                    for attempt in 0..<8 {
                        group.addTask {
                            await rpcError {
                                try await instances[attempt % 2].verify(
                                    try test.attempt("13\(attempt)9"), caller: test.guardian)
                            }
                        }
                    }
                    return await group.reduce(into: [String?]()) { $0.append($1?.reason) }
                }
                #expect(answers.filter { $0 == "PIN_INCORRECT" }.count == 2)
                #expect(answers.filter { $0 == "PIN_LOCKED" }.count == 6)
                let right = await rpcError { try await test.session() }
                #expect(right?.reason == "PIN_LOCKED")
            }
        }
    }

    @Test func theLockHoldsForAnInstanceStartedAfterIt() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            for wrong in ["1111", "1112", "1113"] {
                _ = await rpcError {
                    try await test.pins().verify(try test.attempt(wrong), caller: test.guardian)
                }
            }
            try await test.withSecondPool { restarted in
                let error = await rpcError {
                    try await test.pins(on: restarted).verify(
                        try test.attempt(PinTest.pin), caller: test.guardian)
                }
                #expect(error?.reason == "PIN_LOCKED")
            }
        }
    }

    @Test func theMinorsProofCountsTowardTheSameLockAndOpensNoSession() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let pins = test.pins()
            try await pins.checkProof(try test.attempt(PinTest.pin), caller: test.minor)
            let sessions = try await test.count("guardian_sessions")
            #expect(sessions == 0)
            for wrong in ["1111", "1112"] {
                _ = await rpcError {
                    try await pins.checkProof(try test.attempt(wrong), caller: test.minor)
                }
            }
            let third = await rpcError {
                try await pins.verify(try test.attempt("1113"), caller: test.guardian)
            }
            #expect(third?.reason == "PIN_LOCKED")
            let proof = await rpcError {
                try await pins.checkProof(try test.attempt(PinTest.pin), caller: test.otherGuardian)
            }
            #expect(proof?.code == .resourceExhausted && proof?.retryDelay == .seconds(900))
        }
    }

    @Test func strangersLearnNothingAndCountNothing() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            for pin in ["1111", "1112", "1113", PinTest.pin] {
                let error = await rpcError {
                    try await test.pins().verify(try test.attempt(pin), caller: test.stranger)
                }
                #expect(error?.code == .notFound && error?.reason == "USER_NOT_FOUND")
            }
            let service = await rpcError {
                try await test.pins().checkProof(try test.attempt(PinTest.pin), caller: FamilyCallers.service)
            }
            #expect(service?.code == .notFound)
            #expect(try await !test.session().isEmpty)
        }
    }

    @Test func withoutAPinTheMinorAndGuardiansAreToldSoAndStrangersAreNot() async throws {
        try await PinTest.with { test in
            for caller in [test.minor, test.guardian] {
                let error = await rpcError { try await test.session(caller) }
                #expect(error?.code == .failedPrecondition && error?.reason == "PIN_NOT_SET")
            }
            let stranger = await rpcError { try await test.session(test.stranger) }
            #expect(stranger?.code == .notFound)
        }
    }

    @Test func aMalformedPinIsRefusedWithoutCounting() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            for pin in ["", "12345", "abcd"] {
                let error = await rpcError { try await test.session(pin: pin) }
                #expect(error?.code == .invalidArgument && error?.badFields == ["pin"])
            }
            let row = try await test.pool.query("SELECT failed_attempts FROM family.guardian_pins")[0]
            #expect(try row.decode(Int.self, column: 0) == 0)
        }
    }
}
