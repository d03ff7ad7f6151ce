@testable import FamilyService
import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Profiles and guardian links over the wire, with real identity tokens and identity's events consumed as
/// the service consumes them: each permission rule from the side of whoever would break it.
@Suite struct GuardianRPCTests {
    @Test func aNewMinorsControlsAreOnAndAGuardianLinkedByEmailSeesTheirNames() async throws {
        try await FamilyTestStack.withIdentityEvents { stack in
            let (mia, dad, stranger) = (
                try await stack.register("mia_r", age: 15), try await stack.register("dad_r", age: 41),
                try await stack.register("stranger", age: 30)
            )
            try await eventually("mia's controls are on") {
                try await stack.family.getProfile(.init(userID: mia.id), options: stranger.bearer).profile?
                    .parentalControlsActive == true
            }
            _ = try await stack.family.updateProfile(
                .init(
                    updateMask: ["first_name", "display_name"],
                    profile: .init(displayName: "Mia", firstName: "Mia")),
                options: mia.bearer)
            let invited = try await stack.family.inviteGuardian(
                .init(requestID: "invite-dad", guardianEmail: dad.email), options: mia.bearer)
            let pending = try await stack.family.listGuardianLinks(.init(), options: mia.bearer)
            #expect(
                pending.pendingInvitations.map(\.invitationID) == [invited.invitation?.invitationID ?? "-"])

            let token = try await stack.familyMail.token(to: dad.email)
            let link = try #require(
                try await stack.family.acceptGuardianInvitation(.init(token: token), options: dad.bearer).link
            )
            #expect(link.minorUserID == mia.id && link.guardianUserID == dad.id)
            for user in [mia, dad] {
                let listed = try await stack.family.listGuardianLinks(.init(), options: user.bearer)
                #expect(listed.links.map(\.linkID) == [link.linkID] && listed.pendingInvitations.isEmpty)
            }
            let byGuardian = try await stack.family.getProfile(.init(userID: mia.id), options: dad.bearer)
            let byStranger = try await stack.family.getProfile(
                .init(userID: mia.id), options: stranger.bearer)
            #expect(byGuardian.profile?.firstName == "Mia" && byStranger.profile?.firstName == "")
            #expect(byStranger.profile?.displayName == "Mia")
        }
    }

    @Test func strangersMinorsAndOtherFamiliesCannotEndALink() async throws {
        try await FamilyTestStack.with { stack in
            let (mia, dad) = (
                try await stack.register("mia_r", age: 14), try await stack.register("dad_r", age: 45)
            )
            let (leo, leosMum) = (
                try await stack.register("leo_r", age: 16), try await stack.register("mum_r", age: 44)
            )
            let link = try await stack.link(dad, to: mia)
            _ = try await stack.link(leosMum, to: leo)
            let request = Kindred_Family_V1_RemoveGuardianLinkRequest(linkID: link.linkID)

            let byMinor = await rpcError {
                try await stack.family.removeGuardianLink(request, options: mia.bearer)
            }
            #expect(byMinor?.code == .permissionDenied && byMinor?.reason == "ONLY_GUARDIAN_MAY_REMOVE")
            for outsider in [leosMum, leo] {
                let error = await rpcError {
                    try await stack.family.removeGuardianLink(request, options: outsider.bearer)
                }
                #expect(error?.code == .notFound && error?.reason == "GUARDIAN_LINK_NOT_FOUND")
            }
            let byService = await rpcError {
                try await stack.family.removeGuardianLink(request, options: try await stack.serviceBearer())
            }
            #expect(byService?.code == .notFound)
            _ = try await stack.family.removeGuardianLink(request, options: dad.bearer)
            #expect(try await stack.family.listGuardianLinks(.init(), options: mia.bearer).links.isEmpty)
        }
    }

    @Test func adultsAndServicesCannotInviteAndMinorsCannotAccept() async throws {
        try await FamilyTestStack.with { stack in
            let (mia, sam, dad) = (
                try await stack.register("mia_r", age: 15), try await stack.register("sam_r", age: 17),
                try await stack.register("dad_r", age: 40)
            )
            let invite = Kindred_Family_V1_InviteGuardianRequest(
                requestID: "r-1", guardianEmail: "x@example.com")
            for options in [dad.bearer, try await stack.serviceBearer()] {
                let error = await rpcError { try await stack.family.inviteGuardian(invite, options: options) }
                #expect(error?.code == .permissionDenied && error?.reason == "INVITER_MUST_BE_MINOR")
            }
            _ = try await stack.family.inviteGuardian(
                .init(requestID: "r-2", guardianEmail: sam.email), options: mia.bearer)
            let token = try await stack.familyMail.token(to: sam.email)
            let byMinor = await rpcError {
                try await stack.family.acceptGuardianInvitation(.init(token: token), options: sam.bearer)
            }
            #expect(byMinor?.code == .permissionDenied && byMinor?.reason == "GUARDIAN_MUST_BE_ADULT")
            let byService = await rpcError {
                try await stack.family.acceptGuardianInvitation(
                    .init(token: token), options: try await stack.serviceBearer())
            }
            #expect(byService?.code == .permissionDenied && byService?.reason == "ACCOUNT_REQUIRED")
        }
    }

    @Test func servicesReadNamesAndNobodyElsesProfileIsWritable() async throws {
        try await FamilyTestStack.with { stack in
            let (mia, dad) = (
                try await stack.register("mia_r", age: 15), try await stack.register("dad_r", age: 40)
            )
            _ = try await stack.family.updateProfile(
                .init(updateMask: ["last_name"], profile: .init(lastName: "Rossi")), options: mia.bearer)
            let seen = try await stack.family.getProfile(
                .init(userID: mia.id), options: try await stack.serviceBearer())
            #expect(seen.profile?.lastName == "Rossi")
            let hijack = await rpcError {
                try await stack.family.updateProfile(
                    .init(updateMask: ["last_name"], profile: .init(userID: mia.id, lastName: "X")),
                    options: dad.bearer)
            }
            #expect(hijack?.code == .invalidArgument && hijack?.badFields == ["profile.user_id"])
            let unknown = await rpcError {
                try await stack.family.updateProfile(.init(updateMask: ["email"]), options: dad.bearer)
            }
            #expect(unknown?.code == .invalidArgument)
            #expect(unknown?.badFieldDescriptions.joined().contains("email") == true)
        }
    }

    @Test func aMinorWhoComesOfAgeIsToldAndTheirControlsAndPendingInvitationsEnd() async throws {
        try await FamilyTestStack.withIdentityEvents { stack in
            let sam = try await stack.register("sam_r", age: 17)
            try await eventually("sam's controls are on") {
                try await stack.family.getProfile(.init(), options: sam.bearer).profile?
                    .parentalControlsActive == true
            }
            _ = try await stack.family.inviteGuardian(
                .init(requestID: "r-1", guardianEmail: "gran@example.com"), options: sam.bearer)
            // A corrected date of birth, confirmed by mail, makes sam an adult: identity says user.came_of_age.
            _ = try await stack.identity.changeDateOfBirth(
                .init(password: sam.password, dateOfBirth: .init(year: 1990, month: 1, day: 1)),
                options: sam.bearer)
            let confirmation = try await stack.identityMail.token(to: sam.email)
            _ = try await stack.identity.confirmDateOfBirthChange(
                .init(token: confirmation), options: FamilyTestStack.bearer(nil))
            try await eventually("sam is mailed that controls are off") {
                try await stack.familyMail.mail(to: sam.email).map(\.kind) == ["came_of_age"]
            }
            #expect(
                try await stack.family.getProfile(.init(), options: sam.bearer).profile?
                    .parentalControlsActive == false)
            let listed = try await stack.family.listGuardianLinks(.init(), options: sam.bearer)
            #expect(listed.pendingInvitations.isEmpty)
            let inbox = try await stack.pool.query(
                "SELECT kind FROM family.notifications WHERE recipient_id = \(sam.id)::uuid")
            #expect(
                try inbox.map { try $0.decode(Int32.self, column: 0) } == [
                    Kindred_Family_V1_NotificationKind.cameOfAge.rawValue
                ])
        }
    }

    @Test func aDeletedAccountsFamilyDataGoesWithIt() async throws {
        try await FamilyTestStack.withIdentityEvents { stack in
            let (mia, dad) = (
                try await stack.register("mia_r", age: 13), try await stack.register("dad_r", age: 40)
            )
            try await eventually("mia's controls are on") {
                try await stack.family.getProfile(.init(userID: mia.id), options: dad.bearer).profile?
                    .parentalControlsActive == true
            }
            _ = try await stack.link(dad, to: mia)
            _ = try await stack.family.updateProfile(
                .init(updateMask: ["bio"], profile: .init(bio: "Hi")), options: mia.bearer)
            _ = try await stack.identity.deleteAccount(.init(password: mia.password), options: mia.bearer)
            try await eventually("mia's family data is gone") {
                let profile = try await stack.family.getProfile(.init(userID: mia.id), options: dad.bearer)
                    .profile
                return profile?.bio == "" && profile?.parentalControlsActive == false
            }
            #expect(try await stack.family.listGuardianLinks(.init(), options: dad.bearer).links.isEmpty)
        }
    }
}
