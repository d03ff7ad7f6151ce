@testable import FamilyService
import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The PIN and the controls through the real servers: statuses and details as an app receives them, with
/// users registered through identity and family's clock moved by the test.
@Suite struct GuardianPinWireTests {
    @Test func aGuardianSetsFailsIsLockedResetsByEmailAndChangesAControl() async throws {
        try await FamilyTestStack.with { stack in
            let (teen, mum, family) = (
                try await stack.register("teen_w", age: 15), try await stack.register("mum_w", age: 41),
                stack.family
            )
            try await PinRows.addControls(of: teen.id, at: stack.clock.now, on: stack.pool)
            try await PinRows.link(mum.id, to: teen.id, at: stack.clock.now, on: stack.pool)

            let mismatch = await rpcError {
                try await family.setGuardianPin(
                    .init(minorUserID: teen.id, pin: "2580", pinConfirmation: "2589"), options: mum.bearer)
            }
            #expect(mismatch?.code == .invalidArgument && mismatch?.badFields == ["pin_confirmation"])
            #expect(
                mismatch?.pinErrorInfo?.reason == "PIN_MISMATCH"
                    && mismatch?.pinErrorInfo?.domain == "kindred.family")
            _ = try await family.setGuardianPin(
                .init(minorUserID: teen.id, pin: "2580", pinConfirmation: "2580"), options: mum.bearer)

            let verify = { (pin: String) in
                try await family.verifyGuardianPin(.init(minorUserID: teen.id, pin: pin), options: mum.bearer)
            }
            let first = await rpcError { try await verify("1111") }
            #expect(
                first?.code == .permissionDenied
                    && first?.pinErrorInfo?.metadata == ["attempts_remaining": "2"])
            _ = await rpcError { try await verify("1112") }
            let third = await rpcError { try await verify("1113") }
            #expect(third?.code == .resourceExhausted && third?.reason == "PIN_LOCKED")
            #expect(third?.retryDelay == .seconds(900))
            stack.clock.advance(seconds: 14 * 60 + 59)
            let locked = await rpcError { try await verify("2580") }
            #expect(locked?.code == .resourceExhausted && locked?.retryDelay == .seconds(1))

            let requested = try await family.requestGuardianPinReset(
                .init(minorUserID: teen.id), options: mum.bearer)
            #expect(
                requested.expiresAt == stack.clock.now.addingTimeInterval(86_400).wholeMicroseconds
            )
            let pending = try await family.getParentalControls(
                .init(userID: teen.id), options: try await stack.serviceBearer())
            #expect(pending.controls?.pinResetPending == true)
            let token = try await stack.familyMail.token(to: mum.email)
            let reset = try await family.resetGuardianPin(
                .init(token: token, pin: "1357", pinConfirmation: "1357"),
                options: FamilyTestStack.bearer(nil))
            #expect(reset.minorUserID == teen.id)
            #expect(
                try await stack.familyMail.mail(to: mum.email).map(\.kind) == [
                    "guardian_pin_reset", "guardian_pin_reset_done",
                ])

            let session = try await verify("1357")
            #expect(session.expiresAt == stack.clock.now.addingTimeInterval(600).wholeMicroseconds)
            let updated = try await family.updateParentalControls(
                .init(
                    minorUserID: teen.id, guardianSession: session.guardianSession,
                    updateMask: ["content_filtering"],
                    controls: .init(contentFiltering: false)),
                options: mum.bearer)
            #expect(updated.controls?.contentFiltering == false)
            let seen = try #require(
                try await family.getParentalControls(.init(), options: teen.bearer).controls)
            #expect(
                seen.active && !seen.contentFiltering && seen.messagingFollowedOnly && seen.pinSet
                    && !seen.pinResetPending)
        }
    }

    @Test func aGuardianOpensTheSettingsOnlyWithTheSessionTheirPinOpened() async throws {
        try await FamilyTestStack.with { stack in
            let (teen, mum, family) = (
                try await stack.register("teen_o", age: 15), try await stack.register("mum_o", age: 41),
                stack.family
            )
            try await PinRows.addControls(of: teen.id, at: stack.clock.now, on: stack.pool)
            try await PinRows.link(mum.id, to: teen.id, at: stack.clock.now, on: stack.pool)
            _ = try await family.setGuardianPin(
                .init(minorUserID: teen.id, pin: "2580", pinConfirmation: "2580"), options: mum.bearer)

            let locked = await rpcError {
                try await family.getParentalControls(.init(userID: teen.id), options: mum.bearer)
            }
            #expect(locked?.code == .permissionDenied && locked?.reason == "GUARDIAN_SESSION_REQUIRED")
            #expect(locked?.message == "Enter the guardian PIN to open these settings.")
            let status = try await family.getParentalControlsStatus(
                .init(userID: teen.id), options: mum.bearer)
            #expect(
                status.status == .init(userID: teen.id, active: true, pinSet: true, pinResetPending: false))

            let session = try await family.verifyGuardianPin(
                .init(minorUserID: teen.id, pin: "2580"), options: mum.bearer
            ).guardianSession
            let opened = try await family.getParentalControls(
                .init(userID: teen.id, guardianSession: session), options: mum.bearer)
            let asSocialSees = try await family.getParentalControls(
                .init(userID: teen.id), options: try await stack.serviceBearer())
            #expect(opened.controls != nil && opened.controls == asSocialSees.controls)
            #expect(opened.controls?.contentFiltering == true)
            stack.clock.advance(seconds: 600)
            let expired = await rpcError {
                try await family.getParentalControls(
                    .init(userID: teen.id, guardianSession: session), options: mum.bearer)
            }
            #expect(expired?.code == .permissionDenied && expired?.reason == "GUARDIAN_SESSION_EXPIRED")
        }
    }

    @Test func strangersGetNotFoundAndTheResetNeedsNoAccessToken() async throws {
        try await FamilyTestStack.with { stack in
            let (teen, nosy) = (
                try await stack.register("teen_s", age: 16), try await stack.register("nosy_s", age: 30)
            )
            try await PinRows.addControls(of: teen.id, at: stack.clock.now, on: stack.pool)
            let read = await rpcError {
                try await stack.family.getParentalControls(.init(userID: teen.id), options: nosy.bearer)
            }
            #expect(read?.code == .notFound && read?.reason == "USER_NOT_FOUND")
            let status = await rpcError {
                try await stack.family.getParentalControlsStatus(.init(userID: teen.id), options: nosy.bearer)
            }
            #expect(status == read)
            let verify = await rpcError {
                try await stack.family.verifyGuardianPin(
                    .init(minorUserID: teen.id, pin: "2580"), options: nosy.bearer)
            }
            #expect(verify?.code == .notFound)
            let anonymous = await rpcError {
                try await stack.family.resetGuardianPin(
                    .init(token: "no-such-link", pin: "1357", pinConfirmation: "1357"),
                    options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .notFound && anonymous?.reason == "LINK_UNKNOWN")
            let unauthenticated = await rpcError {
                try await stack.family.getParentalControls(
                    .init(userID: teen.id), options: FamilyTestStack.bearer(nil))
            }
            #expect(unauthenticated?.code == .unauthenticated)
        }
    }
}
