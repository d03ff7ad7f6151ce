@testable import FamilyService
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// Who reads a user's controls, and what changing them takes.
@Suite struct ParentalControlsTests {
    @Test func theMinorServicesAndAdminsReadTheControlsWithoutASession() async throws {
        try await PinTest.with { test in
            for caller in [test.minor, FamilyCallers.service, FamilyCallers.admin] {
                let controls = try await test.controls.get(of: test.minor.id, session: "", caller: caller)
                #expect(
                    controls.userID == test.minor.id.description && controls.active
                        && controls.contentFiltering)
                #expect(!controls.pinSet && !controls.pinResetPending && controls.updatedAt != nil)
            }
            let own = try await test.controls.get(
                of: try MinorControls.owner(named: "", for: test.minor), session: "", caller: test.minor)
            #expect(own.userID == test.minor.id.description && own.active)
        }
    }

    @Test func anyoneElseIsToldTheUserIsNotFoundWhetherOrNotTheyHaveControls() async throws {
        try await PinTest.with { test in
            let asks: [(target: UserID, caller: Caller)] = [
                (test.minor.id, test.stranger), (test.stranger.id, test.guardian),
                (FamilyCallers.adult().id, test.guardian), (test.guardian.id, test.minor),
            ]
            for (target, caller) in asks {
                let error = await rpcError {
                    try await test.controls.get(of: target, session: "", caller: caller)
                }
                #expect(error?.code == .notFound && error?.reason == "USER_NOT_FOUND")
            }
        }
    }

    @Test func anAdultWithoutControlsReadsThemInactive() async throws {
        try await PinTest.with { test in
            let controls = try await test.controls.get(
                of: try MinorControls.owner(named: "", for: test.stranger), session: "", caller: test.stranger
            )
            #expect(
                controls.userID == test.stranger.id.description && !controls.active
                    && !controls.contentFiltering)
            #expect(controls.updatedAt == nil)
        }
    }

    @Test func aServiceMustNameTheUser() async throws {
        try await PinTest.with { test in
            let error = await rpcError {
                try await test.controls.get(
                    of: try MinorControls.owner(named: "", for: FamilyCallers.service), session: "",
                    caller: FamilyCallers.service)
            }
            #expect(error?.code == .invalidArgument && error?.badFields == ["user_id"])
        }
    }

    @Test func aGuardianSessionChangesTheMaskedTogglesAtOnceWithTheirEvent() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let updated = try await test.controls.update(
                try test.update(
                    ["messaging_followed_only", "content_filtering"],
                    to: .init(
                        messagingFollowedOnly: false, publicEventsRestricted: false, contentFiltering: false),
                    session: try await test.session()), caller: test.guardian)
            #expect(
                !updated.messagingFollowedOnly && !updated.contentFiltering && updated.publicEventsRestricted)
            let read = try await test.controls.get(
                of: test.minor.id, session: "", caller: FamilyCallers.service)
            #expect(read == updated)
            let events = try await test.events()
            #expect(events.map(\.type) == ["parental_controls.changed"])
            #expect(events.first?.payload == .parentalControlsChanged(.init(controls: updated)))
        }
    }

    @Test func unknownTogglesAndAnEmptyMaskAreRefusedByName() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let session = try await test.session()
            for mask in [[], ["content_filtering", "bedtime"], ["active"], ["pin_set"]] {
                let error = await rpcError {
                    try await test.controls.update(
                        try test.update(mask, session: session), caller: test.guardian)
                }
                #expect(error?.code == .invalidArgument && error?.badFields == ["update_mask"])
            }
            #expect(try await test.events().isEmpty)
        }
    }

    @Test func inactiveControlsCannotBeChanged() async throws {
        try await PinTest.with { test in
            let adult = FamilyCallers.adult()
            try await test.addControls(of: adult, active: false)
            try await test.link(test.guardian, to: adult)
            let error = await rpcError {
                try await test.controls.update(
                    try test.update(["content_filtering"], session: "any", of: adult.id),
                    caller: test.guardian)
            }
            #expect(error?.code == .failedPrecondition && error?.reason == "CONTROLS_INACTIVE")
        }
    }

    @Test func onlyTheGuardianWhoOpenedASessionAndStillGuardsMayUseIt() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let session = try await test.session()
            let change = { (caller: Caller) in
                try await test.controls.update(
                    try test.update(
                        ["content_filtering"], to: .init(contentFiltering: false), session: session),
                    caller: caller)
            }
            #expect(
                await rpcError { try await change(test.otherGuardian) }?.reason
                    == "GUARDIAN_SESSION_INVALID")
            #expect(await rpcError { try await change(test.minor) }?.reason == "GUARDIANS_ONLY")
            #expect(await rpcError { try await change(test.stranger) }?.code == .notFound)
            let minorsSession = try await test.session(test.minor)
            let byMinorsSession = await rpcError {
                try await test.controls.update(
                    try test.update(
                        ["content_filtering"], to: .init(contentFiltering: false), session: minorsSession),
                    caller: test.guardian)
            }
            #expect(byMinorsSession?.reason == "GUARDIAN_SESSION_INVALID")
            _ = try await change(test.guardian)
            try await test.unlink(test.guardian, from: test.minor)
            #expect(await rpcError { try await change(test.guardian) }?.code == .notFound)
        }
    }

    @Test func aSessionOnOneMinorOpensNothingOnAnother() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let sibling = FamilyCallers.adult()
            try await test.addControls(of: sibling)
            try await test.link(test.guardian, to: sibling)
            let error = await rpcError {
                try await test.controls.update(
                    try test.update(
                        ["content_filtering"], to: .init(contentFiltering: false),
                        session: try await test.session(), of: sibling.id), caller: test.guardian)
            }
            #expect(error?.reason == "GUARDIAN_SESSION_INVALID")
        }
    }
}
