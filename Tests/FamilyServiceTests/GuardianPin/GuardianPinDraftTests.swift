@testable import FamilyService
import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// The PIN's and the controls' requests as their handlers parse them, before any database work: one
/// INVALID_ARGUMENT naming every malformed field, the minor's id among them.
@Suite struct GuardianPinDraftTests {
    static let minor = "0192F5E0-7C1A-7B3E-8F00-0000000000AA"

    @Test func aNewPinNamesEveryMalformedFieldAtOnce() async {
        let error = await rpcError {
            try NewGuardianPin(.init(minorUserID: "not-a-uuid", pin: "12", pinConfirmation: ""))
        }
        #expect(
            error?.code == .invalidArgument
                && error?.badFields == ["minor_user_id", "pin", "pin_confirmation"])
    }

    @Test func aNewPinReadsTheMinorsIdInAnyCaseAndKeepsItsSession() async throws {
        let new = try NewGuardianPin(
            .init(minorUserID: Self.minor, pin: "2580", pinConfirmation: "2580", guardianSession: "s"))
        #expect(new.minorID.description == Self.minor.lowercased() && new.pin == "2580" && new.session == "s")
    }

    @Test(arguments: [
        ("", ["minor_user_id", "pin"]), ("{\(minor)}", ["minor_user_id", "pin"]), (minor, ["pin"]),
    ])
    func anAttemptNamesTheMinorsIdAndThePin(minorUserID: String, fields: [String]) async {
        let verify = await rpcError {
            try PinAttempt(
                Kindred_Family_V1_VerifyGuardianPinRequest(minorUserID: minorUserID, pin: "12a4"))
        }
        let proof = await rpcError {
            try PinAttempt(Kindred_Family_V1_GuardianPinProof(minorUserID: minorUserID, pin: "12a4"))
        }
        #expect(verify?.code == .invalidArgument && verify?.badFields == fields)
        #expect(proof?.badFields == fields)
    }

    @Test func aControlsUpdateNamesTheMinorsIdTheMaskAndTheControls() async {
        let error = await rpcError { try ControlsUpdate(.init(minorUserID: "mia", updateMask: [])) }
        #expect(
            error?.code == .invalidArgument
                && error?.badFields == ["minor_user_id", "update_mask", "controls"])
    }

    @Test func aReadOfControlsNamesAMalformedUserAndWantsOneFromAService() async throws {
        let malformed = await rpcError { try MinorControls.owner(named: "mia", for: FamilyCallers.adult()) }
        let unnamed = await rpcError { try MinorControls.owner(named: "", for: FamilyCallers.service) }
        #expect(malformed?.code == .invalidArgument && malformed?.badFields == ["user_id"])
        #expect(unnamed?.code == .invalidArgument && unnamed?.badFields == ["user_id"])
        let minor = FamilyCallers.minor()
        #expect(try MinorControls.owner(named: "", for: minor) == minor.accountUserID)
        #expect(try MinorControls.owner(named: Self.minor, for: minor).description == Self.minor.lowercased())
    }
}
