@testable import FamilyService
import Foundation
import KindredRPC
import KindredTestSupport
import Testing

/// Who may set a minor's PIN, and what changing it takes.
@Suite struct GuardianPinSettingTests {
    @Test func aGuardianSetsTheFirstPinWhichThenOpensSessions() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let minorID = try #require(test.minor.accountUserID)
            let stored = try await GuardianPinStore.hashes(after: nil, limit: 1, on: test.pool)[0].1
            let hash = try PinTest.secrets.hashes.open(stored, of: minorID)
            #expect(hash.hasPrefix("$argon2id$") && !hash.contains(PinTest.pin))
            #expect(try await !test.session(test.otherGuardian).isEmpty)
        }
    }

    @Test func theMinorCannotSetTheirOwnPinAndStrangersAreNotTold() async throws {
        try await PinTest.with { test in
            let minor = await rpcError { try await test.setPin(by: test.minor) }
            #expect(minor?.code == .permissionDenied && minor?.reason == "GUARDIANS_ONLY")
            for outsider in [test.stranger, FamilyCallers.service] {
                let error = await rpcError { try await test.setPin(by: outsider) }
                #expect(error?.code == .notFound && error?.reason == "USER_NOT_FOUND")
            }
            let pins = try await test.count("guardian_pins")
            #expect(pins == 0)
        }
    }

    @Test func changingThePinNeedsASessionOfTheCallersOwn() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let change = { (session: String) in
                try await test.pins().set(try test.newPin("1357", session: session), caller: test.guardian)
            }
            let none = await rpcError { try await change("") }
            #expect(none?.code == .permissionDenied && none?.reason == "GUARDIAN_SESSION_REQUIRED")
            let othersSession = try await test.session(test.otherGuardian)
            #expect(
                await rpcError { try await change(othersSession) }?.reason == "GUARDIAN_SESSION_INVALID")
            #expect(await rpcError { try await change("made-up") }?.reason == "GUARDIAN_SESSION_INVALID")

            try await change(try await test.session())
            #expect(await rpcError { try await test.session() }?.reason == "PIN_INCORRECT")
            #expect(try await !test.session(pin: "1357").isEmpty)
        }
    }

    @Test(arguments: [1_781_000_000, 1_781_000_000.123_456_7])
    func aSessionExpiresAfterTenMinutes(start: Double) async throws {
        try await PinTest.with(start: Date(timeIntervalSince1970: start)) { test in
            try await test.setPin()
            let session = try await test.session()
            let change = { (pin: String) in
                try await test.pins().set(try test.newPin(pin, session: session), caller: test.guardian)
            }
            test.clock.advance(seconds: 9 * 60 + 59)
            try await change("1357")
            test.clock.advance(seconds: 1)
            let error = await rpcError { try await change("8642") }
            #expect(error?.code == .permissionDenied && error?.reason == "GUARDIAN_SESSION_EXPIRED")
        }
    }

    @Test func twoGuardiansRacingToSetTheFirstPinLeaveOneAndRefuseTheOther() async throws {
        try await PinTest.with { test in
            async let first = rpcError { try await test.setPin("2580", by: test.guardian) }
            async let second = rpcError { try await test.setPin("1357", by: test.otherGuardian) }
            let answers = await [first, second]
            #expect(answers.compactMap { $0 }.map(\.reason) == ["GUARDIAN_SESSION_REQUIRED"])
            let pins = try await test.count("guardian_pins")
            #expect(pins == 1)
        }
    }

    @Test func aMismatchIsRefusedBeforeAnythingIsStored() async throws {
        try await PinTest.with { test in
            let error = await rpcError {
                try await test.pins().set(
                    try test.newPin("2580", confirmation: "2581"), caller: test.guardian)
            }
            #expect(error?.code == .invalidArgument && error?.reason == "PIN_MISMATCH")
            let pins = try await test.count("guardian_pins")
            #expect(pins == 0)
        }
    }
}
