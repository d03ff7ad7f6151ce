@testable import FamilyService
import KindredRPC
import KindredTestSupport
import Testing

/// Forgot PIN: a single-use link mailed to the guardian who asks, valid 24 hours, blocking changes meanwhile.
@Suite struct GuardianPinResetTests {
    @Test func theLinkGoesToTheAskingGuardianAndSetsANewPinOnce() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let expiresAt = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            #expect(expiresAt == test.clock.now.addingTimeInterval(24 * 3_600))
            let mails = try await TestMailbox(test.pool, schema: "family").all()
            let mail = try #require(mails.last)
            #expect(
                mails.count == 1 && mail.to == PinTest.email(test.guardian.id)
                    && mail.kind == "guardian_pin_reset")
            let token = try #require(mail.tokenLines.first)
            #expect(mail.body.contains("https://kindred.test/app/guardian-pin-reset?token=\(token)"))
            #expect(mail.body.contains(PinTest.username(test.minor.id)))

            let minorID = try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
            #expect(minorID == test.minor.accountUserID)
            #expect(try await !test.session(pin: "1357").isEmpty)
            let confirmation = try await TestMailbox(test.pool, schema: "family").all().last
            #expect(confirmation?.kind == "guardian_pin_reset_done" && confirmation?.to == mail.to)

            let again = await rpcError {
                try await test.pins().reset(token: token, pin: "8642", confirmation: "8642")
            }
            #expect(again?.code == .failedPrecondition && again?.reason == "LINK_ALREADY_USED")
        }
    }

    @Test func whileAResetIsPendingNeitherThePinNorTheControlsChange() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let session = try await test.session()
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.otherGuardian)
            let setting = await rpcError {
                try await test.pins().set(try test.newPin("1357", session: session), caller: test.guardian)
            }
            #expect(setting?.code == .failedPrecondition && setting?.reason == "PIN_RESET_PENDING")
            let update = await rpcError {
                try await test.controls.update(
                    try test.update(
                        ["content_filtering"], to: .init(contentFiltering: false), session: session),
                    caller: test.guardian)
            }
            #expect(update?.code == .failedPrecondition && update?.reason == "PIN_RESET_PENDING")
            let controls = try await test.controls.get(
                of: try MinorControls.owner(named: "", for: test.minor), session: "", caller: test.minor)
            #expect(controls.pinResetPending && controls.pinSet)
        }
    }

    @Test func anExpiredLinkIsRefusedAndNoLongerBlocksAnything() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            let token = try await TestMailbox(test.pool, schema: "family").token(
                to: PinTest.email(test.guardian.id))
            test.clock.advance(seconds: 24 * 3_600)
            let error = await rpcError {
                try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
            }
            #expect(error?.code == .failedPrecondition && error?.reason == "LINK_EXPIRED")
            let session = try await test.session()
            _ = try await test.controls.update(
                try test.update(["content_filtering"], to: .init(contentFiltering: false), session: session),
                caller: test.guardian)
        }
    }

    @Test func aNewRequestReplacesTheEarlierLink() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let mailbox = TestMailbox(test.pool, schema: "family")
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            let first = try await mailbox.token(to: PinTest.email(test.guardian.id))
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.otherGuardian)
            let second = try await mailbox.token(to: PinTest.email(test.otherGuardian.id))
            let old = await rpcError {
                try await test.pins().reset(token: first, pin: "1357", confirmation: "1357")
            }
            #expect(old?.reason == "LINK_ALREADY_USED")
            _ = try await test.pins().reset(token: second, pin: "1357", confirmation: "1357")
        }
    }

    @Test func anUnknownLinkIsNotFoundAndABadPinLeavesTheLinkWorking() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let unknown = await rpcError {
                try await test.pins().reset(token: "no-such-token", pin: "1357", confirmation: "1357")
            }
            #expect(unknown?.code == .notFound && unknown?.reason == "LINK_UNKNOWN")
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            let token = try await TestMailbox(test.pool, schema: "family").token(
                to: PinTest.email(test.guardian.id))
            let simple = await rpcError {
                try await test.pins().reset(token: token, pin: "1234", confirmation: "1234")
            }
            #expect(simple?.reason == "PIN_TOO_SIMPLE")
            _ = try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
        }
    }

    @Test func aResetEndsTheLockoutAndEverySessionOfTheOldPin() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let oldSession = try await test.session()
            for wrong in ["1111", "1112", "1113"] {
                _ = await rpcError { try await test.session(pin: wrong) }
            }
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            let token = try await TestMailbox(test.pool, schema: "family").token(
                to: PinTest.email(test.guardian.id))
            _ = try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
            let stale = await rpcError {
                try await test.controls.update(
                    try test.update(
                        ["content_filtering"], to: .init(contentFiltering: false), session: oldSession),
                    caller: test.guardian)
            }
            #expect(stale?.reason == "GUARDIAN_SESSION_INVALID")
            #expect(try await !test.session(pin: "1357").isEmpty)
        }
    }

    @Test func onlyAGuardianAsksAndOnlyOnceAPinExists() async throws {
        try await PinTest.with { test in
            let unset = await rpcError {
                try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            }
            #expect(unset?.reason == "PIN_NOT_SET")
            try await test.setPin()
            let minor = await rpcError {
                try await test.pins().requestReset(of: test.minor.id, caller: test.minor)
            }
            #expect(minor?.reason == "GUARDIANS_ONLY")
            let stranger = await rpcError {
                try await test.pins().requestReset(of: test.minor.id, caller: test.stranger)
            }
            #expect(stranger?.code == .notFound)
            #expect(try await TestMailbox(test.pool, schema: "family").all().isEmpty)
        }
    }

    @Test func aGuardianUnlinkedSinceTheRequestCannotUseTheLinkNorBlockTheOthers() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            _ = try await test.pins().requestReset(of: test.minor.id, caller: test.guardian)
            let token = try await TestMailbox(test.pool, schema: "family").token(
                to: PinTest.email(test.guardian.id))
            try await test.unlink(test.guardian, from: test.minor)
            let error = await rpcError {
                try await test.pins().reset(token: token, pin: "1357", confirmation: "1357")
            }
            #expect(error?.code == .notFound && error?.reason == "LINK_UNKNOWN")
            let controls = try await test.controls.update(
                try test.update(
                    ["content_filtering"], to: .init(contentFiltering: false),
                    session: try await test.session(test.otherGuardian)), caller: test.otherGuardian)
            #expect(!controls.contentFiltering && !controls.pinResetPending)
        }
    }
}
