@testable import FamilyService
import KindredHandlers
import KindredRPC
import KindredTestSupport
import Testing

/// What a new PIN must be, checked before any database or Argon2id work.
@Suite struct GuardianPinRulesTests {
    @Test(arguments: ["0000", "7777", "1234", "0123", "6789", "4321", "9876", "3210"])
    func trivialPinsAreRefusedAsTooSimple(pin: String) {
        let error = refusal { try GuardianPinRules.checkNewPin(pin, confirmation: pin, violations: .init()) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.reason == "PIN_TOO_SIMPLE")
        #expect(error?.badFields == ["pin"])
    }

    @Test(arguments: ["2580", "1357", "9012", "1123", "0001", "8642", "1212"])
    func otherFourDigitPinsAreAccepted(pin: String) {
        #expect(
            refusal { try GuardianPinRules.checkNewPin(pin, confirmation: pin, violations: .init()) } == nil)
    }

    @Test func twoDifferentPinsAreAMismatchNamingTheConfirmation() {
        let error = refusal {
            try GuardianPinRules.checkNewPin("2580", confirmation: "2581", violations: .init())
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.reason == "PIN_MISMATCH")
        #expect(error?.badFields == ["pin_confirmation"])
    }

    @Test(arguments: ["", "258", "25801", "25a0", " 258", "２５８０", "٢٥٨٠"])
    func anythingButFourAsciiDigitsIsMalformed(pin: String) {
        let error = refusal { try GuardianPinRules.checkNewPin(pin, confirmation: pin, violations: .init()) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.reason == nil)
        #expect(error?.badFields.first == "pin")
    }

    private func refusal(_ body: () throws -> Void) -> RPCError? {
        do {
            try body()
            return nil
        } catch {
            return error as? RPCError ?? RPCError(.unknown, "\(error)")
        }
    }
}
