@testable import FamilyService
import KindredAuth
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// The guardian PIN guards a minor's settings, not only changes to them: a guardian reads the controls only
/// with a session of theirs on that minor, while the status (active, PIN set, reset pending) needs none.
@Suite struct SettingsAccessTests {
    @Test func aGuardianWithoutASessionCannotOpenTheSettings() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let error = await rpcError {
                try await test.controls.get(userID: test.minor.userID, session: "", caller: test.guardian)
            }
            #expect(error?.code == .permissionDenied && error?.reason == "GUARDIAN_SESSION_REQUIRED")
            #expect(error?.pinErrorInfo?.domain == "kindred.family")
            #expect(error?.message == "Enter the guardian PIN to open these settings.")
        }
    }

    @Test func aGuardianWithTheirSessionOpensTheSettings() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            for guardian in [test.guardian, test.otherGuardian] {
                let controls = try await test.controls.get(
                    userID: test.minor.userID, session: try await test.session(guardian), caller: guardian)
                let seen = try await test.controls.get(
                    userID: test.minor.userID, session: "", caller: FamilyCallers.service)
                #expect(controls == seen && controls.active && controls.contentFiltering && controls.pinSet)
            }
        }
    }

    @Test func aSessionOnAnotherMinorOrOfAnotherUserDoesNotOpenThisOne() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let sibling = FamilyCallers.adult()
            try await test.addControls(of: sibling)
            try await test.link(test.guardian, to: sibling)
            let onTheMinor = try await test.session()
            let read = { (userID: String, session: String, caller: Caller) in
                await rpcError {
                    try await test.controls.get(userID: userID, session: session, caller: caller)
                }
            }
            let refusals = [
                await read(sibling.userID, onTheMinor, test.guardian),
                await read(test.minor.userID, onTheMinor, test.otherGuardian),
                await read(test.minor.userID, try await test.session(test.minor), test.guardian),
                await read(test.minor.userID, "no-such-session", test.guardian),
                await read(test.minor.userID, String(repeating: "x", count: 5_000), test.guardian),
            ]
            for error in refusals {
                #expect(error?.code == .permissionDenied && error?.reason == "GUARDIAN_SESSION_INVALID")
            }
        }
    }

    @Test func anExpiredSessionIsRefused() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let session = try await test.session()
            let read = {
                try await test.controls.get(
                    userID: test.minor.userID, session: session, caller: test.guardian)
            }
            test.clock.advance(seconds: 9 * 60 + 59)
            #expect(try await read().active)
            test.clock.advance(seconds: 1)
            let error = await rpcError { try await read() }
            #expect(error?.code == .permissionDenied && error?.reason == "GUARDIAN_SESSION_EXPIRED")
        }
    }

    @Test func aSessionEndedByAPinResetOpensNothing() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let session = try await test.session()
            _ = try await test.pins().requestReset(minorID: test.minor.userID, caller: test.otherGuardian)
            let token = try await TestMailbox(test.pool, schema: "family").token(
                to: PinTest.email(test.otherGuardian.userID))
            _ = try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
            let error = await rpcError {
                try await test.controls.get(
                    userID: test.minor.userID, session: session, caller: test.guardian)
            }
            #expect(error?.reason == "GUARDIAN_SESSION_INVALID")
        }
    }

    @Test func strangersGetTheAnswerAUserNobodyHasGetsWhateverTheyPresent() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let nobody = FamilyCallers.adult().userID
            let session = try await test.session()
            // The guardian's own session, in a stranger's hands or after the guardian left, opens nothing.
            let settings = [
                await rpcError {
                    try await test.controls.get(userID: test.minor.userID, session: "", caller: test.stranger)
                },
                await rpcError {
                    try await test.controls.get(
                        userID: test.minor.userID, session: session, caller: test.stranger)
                },
                await rpcError {
                    try await test.controls.get(userID: nobody, session: "", caller: test.stranger)
                },
                await rpcError {
                    try await test.controls.get(userID: nobody, session: session, caller: test.guardian)
                },
            ]
            let status = [
                await rpcError {
                    try await test.controls.status(userID: test.minor.userID, caller: test.stranger)
                },
                await rpcError { try await test.controls.status(userID: nobody, caller: test.stranger) },
            ]
            try await test.unlink(test.guardian, from: test.minor)
            let unlinked = await rpcError {
                try await test.controls.get(
                    userID: test.minor.userID, session: session, caller: test.guardian)
            }
            let answers = settings + status + [unlinked]
            for error in answers {
                #expect(error?.code == .notFound && error?.reason == "USER_NOT_FOUND")
                #expect(error == answers[0])
            }
        }
    }

    @Test func theStatusShowsThePinAndAPendingResetToTheMinorTheirGuardiansAndServices() async throws {
        try await PinTest.with { test in
            let callers = [
                test.minor, test.guardian, test.otherGuardian, FamilyCallers.service, FamilyCallers.admin,
            ]
            let statuses = {
                var seen: [Kindred_Family_V1_ParentalControlsStatus] = []
                for caller in callers {
                    seen.append(try await test.controls.status(userID: test.minor.userID, caller: caller))
                }
                return seen
            }
            let expected = { (pinSet: Bool, pending: Bool) in
                Kindred_Family_V1_ParentalControlsStatus(
                    userID: test.minor.userID, active: true, pinSet: pinSet, pinResetPending: pending)
            }
            #expect(try await statuses() == Array(repeating: expected(false, false), count: callers.count))
            try await test.setPin()
            #expect(try await statuses() == Array(repeating: expected(true, false), count: callers.count))
            _ = try await test.pins().requestReset(minorID: test.minor.userID, caller: test.guardian)
            #expect(try await statuses() == Array(repeating: expected(true, true), count: callers.count))
            let own = try await test.controls.status(userID: "", caller: test.minor)
            #expect(own == expected(true, true))
        }
    }

    @Test func anAdultsStatusIsInactive() async throws {
        try await PinTest.with { test in
            let own = try await test.controls.status(userID: "", caller: test.stranger)
            #expect(
                own
                    == .init(
                        userID: test.stranger.userID, active: false, pinSet: false, pinResetPending: false))
        }
    }
}
