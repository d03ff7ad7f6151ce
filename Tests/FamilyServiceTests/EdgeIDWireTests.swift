@testable import FamilyService
import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The ids of family's RPCs that took them as text into their rules (`RemoveGuardianLink`, `GetProfile`,
/// `WatchNotifications`, `UnregisterPushDevice`, `CreateApprovalRequest` and `UpdateBabyProfile`; the baby
/// content's are in `BabyContentIDWireTests`), now parsed once by their handlers after the token: any case of a
/// UUID names the thing, anything else is INVALID_ARGUMENT naming the field, and without a token it is
/// UNAUTHENTICATED whatever the id.
@Suite struct EdgeIDWireTests {
    @Test func aLinkIdIsParsedAtTheEdgeAndAnotherFamilysLinkIsNotFound() async throws {
        try await FamilyTestStack.with { stack in
            let (mia, dad, stranger) = (
                try await stack.register("mia_e", age: 14), try await stack.register("dad_e", age: 45),
                try await stack.register("stranger_e", age: 30)
            )
            let link = try await stack.link(dad, to: mia)
            let shouted = Kindred_Family_V1_RemoveGuardianLinkRequest(linkID: link.linkID.uppercased())
            let unknown = Kindred_Family_V1_RemoveGuardianLinkRequest(linkID: UUIDv7.generate(at: Date()))
            let hidden = await rpcError {
                try await stack.family.removeGuardianLink(shouted, options: stranger.bearer)
            }
            let missing = await rpcError {
                try await stack.family.removeGuardianLink(unknown, options: stranger.bearer)
            }
            #expect(hidden?.code == .notFound && hidden?.reason == "GUARDIAN_LINK_NOT_FOUND")
            #expect(hidden?.message == missing?.message && hidden?.reason == missing?.reason)

            for malformed in ["", "42"] {
                let refused = await rpcError {
                    try await stack.family.removeGuardianLink(.init(linkID: malformed), options: dad.bearer)
                }
                #expect(refused?.code == .invalidArgument && refused?.badFields == ["link_id"])
            }
            let anonymous = await rpcError {
                try await stack.family.removeGuardianLink(
                    .init(linkID: "42"), options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)

            _ = try await stack.family.removeGuardianLink(shouted, options: dad.bearer)
            #expect(try await stack.family.listGuardianLinks(.init(), options: mia.bearer).links.isEmpty)
        }
    }

    @Test func aProfilesUserIdIsParsedAtTheEdge() async throws {
        try await FamilyTestStack.with { stack in
            let (ann, ben) = (
                try await stack.register("ann_e", age: 35), try await stack.register("ben_e", age: 36)
            )
            let seen = try await stack.family.getProfile(
                .init(userID: ann.id.uppercased()), options: ben.bearer)
            #expect(seen.profile?.userID == ann.id)
            let own = try await stack.family.getProfile(.init(), options: ann.bearer)
            #expect(own.profile?.userID == ann.id)

            let refused = await rpcError {
                try await stack.family.getProfile(.init(userID: "ann_e"), options: ben.bearer)
            }
            #expect(refused?.code == .invalidArgument && refused?.badFields == ["user_id"])
            let anonymous = await rpcError {
                try await stack.family.getProfile(
                    .init(userID: "ann_e"), options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)
        }
    }

    @Test func aWatchsResumePointIsParsedAtTheEdge() async throws {
        try await FamilyTestStack.with { stack in
            let ann = try await stack.register("ann_w", age: 35)
            for (options, code) in [
                (ann.bearer, StatusCode.invalidArgument), (FamilyTestStack.bearer(nil), .unauthenticated),
            ] {
                let refused = await rpcError {
                    for try await _ in stack.family.watchNotifications(
                        .init(afterNotificationID: "yesterday"), options: options)
                    {
                        Issue.record("a refused watch sent a notification")
                    }
                }
                #expect(refused?.code == code)
                if code == .invalidArgument { #expect(refused?.badFields == ["after_notification_id"]) }
            }
        }
    }

    @Test func aPushDevicesIdIsParsedAtTheEdge() async throws {
        try await FamilyTestStack.with { stack in
            let ann = try await stack.register("ann_d", age: 35)
            let device = try #require(
                try await stack.family.registerPushDevice(
                    .init(platform: .fcm, deviceToken: "ann-phone", pushEnabled: true), options: ann.bearer
                ).device)
            let refused = await rpcError {
                try await stack.family.unregisterPushDevice(.init(deviceID: "7"), options: ann.bearer)
            }
            #expect(refused?.code == .invalidArgument && refused?.badFields == ["device_id"])
            let anonymous = await rpcError {
                try await stack.family.unregisterPushDevice(
                    .init(deviceID: "7"), options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)
            _ = try await stack.family.unregisterPushDevice(
                .init(deviceID: device.deviceID.uppercased()), options: ann.bearer)
            let gone = await rpcError {
                try await stack.family.unregisterPushDevice(
                    .init(deviceID: device.deviceID), options: ann.bearer)
            }
            #expect(gone?.code == .notFound)
        }
    }

    @Test func anApprovalRequestsMinorIdIsParsedAfterTheToken() async throws {
        try await FamilyTestStack.with { stack in
            let mia = try await stack.register("mia_a", age: 14)
            let ask = Kindred_Family_V1_CreateApprovalRequestRequest(
                minorUserID: "mia_a", kind: .joinEvent, subjectID: "event-1",
                summary: "Join the beach cleanup")
            let refused = await rpcError {
                try await stack.family.createApprovalRequest(ask, options: mia.bearer)
            }
            #expect(refused?.code == .invalidArgument && refused?.badFields == ["minor_user_id"])
            let anonymous = await rpcError {
                try await stack.family.createApprovalRequest(ask, options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)
        }
    }

    @Test func aBabyProfileChangesIdIsParsedAfterTheTokenWithItsMask() async throws {
        try await BabyContentFamily.with { home in
            let bad = Kindred_Family_V1_UpdateBabyProfileRequest(
                updateMask: ["colour"], profile: .init(profileID: "lily"))
            let refused = await rpcError {
                try await home.family.updateBabyProfile(bad, options: home.mum.bearer)
            }
            #expect(
                refused?.code == .invalidArgument
                    && refused?.badFields == ["profile.profile_id", "update_mask"])
            let anonymous = await rpcError {
                try await home.family.updateBabyProfile(bad, options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)

            let shouted = home.profile.description.uppercased()
            let byStranger = await rpcError {
                try await home.family.updateBabyProfile(
                    .init(updateMask: ["name"], profile: .init(profileID: shouted, name: "Rose")),
                    options: home.stranger.bearer)
            }
            let unknown = await rpcError {
                try await home.family.updateBabyProfile(
                    .init(
                        updateMask: ["name"],
                        profile: .init(profileID: UUIDv7.generate(at: Date()), name: "Rose")),
                    options: home.stranger.bearer)
            }
            #expect(byStranger?.code == .notFound && byStranger?.reason == unknown?.reason)
            #expect(byStranger?.message == unknown?.message)
            let renamed = try await home.family.updateBabyProfile(
                .init(updateMask: ["name"], profile: .init(profileID: shouted, name: "Rose")),
                options: home.mum.bearer)
            #expect(renamed.profile?.name == "Rose" && renamed.profile?.profileID == home.profile.description)
        }
    }
}
