import Foundation
import KindredMessages
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// A new photo is news for the profile's followers (NOTIFICATION_KIND_BABY_PHOTO), which each can switch off.
@Suite struct GalleryNoticeTests {
    @Test func followersHearOfANewPhotoUnlessTheySwitchedItOff() async throws {
        try await BabyContentFamily.with { home in
            _ = try await home.family.updateNotificationSettings(
                .init(settings: .init(activityAlerts: true, weeklySummary: true, mutedKinds: [.babyPhoto])),
                options: home.grandpa.bearer)
            _ = try await home.upload(PhotoFixtures.png, caption: "Bath time")
            let told = try await home.stack.notices(of: home.grandma)
            #expect(told.map(\.kind) == [Int(Kindred_Family_V1_NotificationKind.babyPhoto.rawValue)])
            #expect(told.first?.body.hasSuffix(" added a photo: Bath time") == true)
            #expect(try await home.stack.notices(of: home.grandpa).isEmpty)
            #expect(try await home.stack.notices(of: home.mum).isEmpty)
        }
    }
}
