@testable import FamilyService
import KindredAuth
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// Who reads a user's controls, and what changing them takes.
@Suite struct ParentalControlsTests {
    @Test func theMinorServicesAndAdminsReadTheControlsWithoutASession() async throws {
        try await PinTest.with { test in
            for caller in [test.minor, FamilyCallers.service, FamilyCallers.admin] {
                let controls = try await test.controls.get(
                    userID: test.minor.userID, session: "", caller: caller)
                #expect(controls.userID == test.minor.userID && controls.active && controls.contentFiltering)
                #expect(!controls.pinSet && !controls.pinResetPending && controls.updatedAt != nil)
            }
            let own = try await test.controls.get(userID: "", session: "", caller: test.minor)
            #expect(own.userID == test.minor.userID && own.active)
        }
    }

    @Test func anyoneElseIsToldTheUserIsNotFoundWhetherOrNotTheyHaveControls() async throws {
        try await PinTest.with { test in
            let asks: [(target: String, caller: Caller)] = [
                (test.minor.userID, test.stranger), (test.stranger.userID, test.guardian),
                (FamilyCallers.adult().userID, test.guardian), (test.guardian.userID, test.minor),
            ]
            for (target, caller) in asks {
                let error = await rpcError {
                    try await test.controls.get(userID: target, session: "", caller: caller)
                }
                #expect(error?.code == .notFound && error?.reason == "USER_NOT_FOUND")
            }
        }
    }

    @Test func anAdultWithoutControlsReadsThemInactive() async throws {
        try await PinTest.with { test in
            let controls = try await test.controls.get(userID: "", session: "", caller: test.stranger)
            #expect(controls.userID == test.stranger.userID && !controls.active && !controls.contentFiltering)
            #expect(controls.updatedAt == nil)
        }
    }

    @Test func aServiceMustNameTheUser() async throws {
        try await PinTest.with { test in
            let error = await rpcError {
                try await test.controls.get(userID: "", session: "", caller: FamilyCallers.service)
            }
            #expect(error?.code == .invalidArgument && error?.badFields == ["user_id"])
        }
    }

    @Test func aGuardianSessionChangesTheMaskedTogglesAtOnceWithTheirEvent() async throws {
        try await PinTest.with { test in
            try await test.setPin()
            let updated = try await test.controls.update(
                minorID: test.minor.userID, session: try await test.session(),
                mask: ["messaging_followed_only", "content_filtering"],
                changes: .init(
                    messagingFollowedOnly: false, publicEventsRestricted: false, contentFiltering: false),
                caller: test.guardian)
            #expect(
                !updated.messagingFollowedOnly && !updated.contentFiltering && updated.publicEventsRestricted)
            let read = try await test.controls.get(
                userID: test.minor.userID, session: "", caller: FamilyCallers.service)
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
                        minorID: test.minor.userID, session: session, mask: mask, changes: .init(),
                        caller: test.guardian)
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
                    minorID: adult.userID, session: "any", mask: ["content_filtering"], changes: .init(),
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
                    minorID: test.minor.userID, session: session, mask: ["content_filtering"],
                    changes: .init(contentFiltering: false), caller: caller)
            }
            #expect(
                await rpcError { try await change(test.otherGuardian) }?.reason
                    == "GUARDIAN_SESSION_INVALID")
            #expect(await rpcError { try await change(test.minor) }?.reason == "GUARDIANS_ONLY")
            #expect(await rpcError { try await change(test.stranger) }?.code == .notFound)
            let minorsSession = try await test.session(test.minor)
            let byMinorsSession = await rpcError {
                try await test.controls.update(
                    minorID: test.minor.userID, session: minorsSession, mask: ["content_filtering"],
                    changes: .init(contentFiltering: false), caller: test.guardian)
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
                    minorID: sibling.userID, session: try await test.session(), mask: ["content_filtering"],
                    changes: .init(contentFiltering: false), caller: test.guardian)
            }
            #expect(error?.reason == "GUARDIAN_SESSION_INVALID")
        }
    }
}
