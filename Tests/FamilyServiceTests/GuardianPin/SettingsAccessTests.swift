@testable import FamilyService
import KindredAuth
import KindredHandlers
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
                try await test.controls.get(of: test.minor.id, session: "", caller: test.guardian)
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
                    of: test.minor.id, session: try await test.session(guardian), caller: guardian)
                let seen = try await test.controls.get(
                    of: test.minor.id, session: "", caller: FamilyCallers.service)
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
            let read = { (userID: UserID, session: String, caller: Caller) in
                await rpcError {
                    try await test.controls.get(of: userID, session: session, caller: caller)
                }
            }
            let refusals = [
                await read(sibling.id, onTheMinor, test.guardian),
                await read(test.minor.id, onTheMinor, test.otherGuardian),
                await read(test.minor.id, try await test.session(test.minor), test.guardian),
                await read(test.minor.id, "no-such-session", test.guardian),
                await read(test.minor.id, String(repeating: "x", count: 5_000), test.guardian),
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
                try await test.controls.get(of: test.minor.id, session: session, caller: test.guardian)
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
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.otherGuardian)
            let token = try await TestMailbox(test.pool, schema: "family").token(
                to: PinTest.email(test.otherGuardian.id))
            _ = try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
            let error = await rpcError {
                try await test.controls.get(of: test.minor.id, session: session, caller: test.guardian)
            }
            #expect(error?.reason == "GUARDIAN_SESSION_INVALID")
        }
    }

    @Test func strangersGetTheAnswerAUserNobodyHasGetsWhateverTheyPresent() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let nobody = FamilyCallers.adult().id
            let session = try await test.session()
            // The guardian's own session, in a stranger's hands or after the guardian left, opens nothing.
            let settings = [
                await rpcError {
                    try await test.controls.get(of: test.minor.id, session: "", caller: test.stranger)
                },
                await rpcError {
                    try await test.controls.get(of: test.minor.id, session: session, caller: test.stranger)
                },
                await rpcError {
                    try await test.controls.get(of: nobody, session: "", caller: test.stranger)
                },
                await rpcError {
                    try await test.controls.get(of: nobody, session: session, caller: test.guardian)
                },
            ]
            let status = [
                await rpcError {
                    try await test.controls.status(of: test.minor.id, caller: test.stranger)
                },
                await rpcError { try await test.controls.status(of: nobody, caller: test.stranger) },
            ]
            try await test.unlink(test.guardian, from: test.minor)
            let unlinked = await rpcError {
                try await test.controls.get(of: test.minor.id, session: session, caller: test.guardian)
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
                    seen.append(try await test.controls.status(of: test.minor.id, caller: caller))
                }
                return seen
            }
            let expected = { (pinSet: Bool, pending: Bool) in
                Kindred_Family_V1_ParentalControlsStatus(
                    userID: test.minor.id.description, active: true, pinSet: pinSet, pinResetPending: pending)
            }
            #expect(try await statuses() == Array(repeating: expected(false, false), count: callers.count))
            try await test.setPin()
            #expect(try await statuses() == Array(repeating: expected(true, false), count: callers.count))
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            #expect(try await statuses() == Array(repeating: expected(true, true), count: callers.count))
            let own = try await test.controls.status(
                of: try MinorControls.owner(named: "", for: test.minor), caller: test.minor)
            #expect(own == expected(true, true))
        }
    }

    @Test func anAdultsStatusIsInactive() async throws {
        try await PinTest.with { test in
            let own = try await test.controls.status(
                of: try MinorControls.owner(named: "", for: test.stranger), caller: test.stranger)
            #expect(
                own
                    == .init(
                        userID: test.stranger.id.description, active: false, pinSet: false,
                        pinResetPending: false))
        }
    }
}
