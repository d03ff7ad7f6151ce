import KindredHandlers
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct SocialFriendGraphTests {
    @Test func friendsAreFriendsOnlyOnceSocialSaysSo() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let ben = try await stack.register("ben")
            let annaID = try #require(UserID(anna.id))
            let benID = try #require(UserID(ben.id))
            #expect(try await stack.context.friends.areFriends(annaID, benID) == false)
            try await stack.befriend(anna, ben)
            #expect(try await stack.context.friends.areFriends(annaID, benID))
            #expect(try await stack.context.friends.areFriends(benID, annaID))
        }
    }
}
