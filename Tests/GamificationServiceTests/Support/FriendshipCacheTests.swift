import Foundation
import KindredHandlers
@testable import GamificationService
import Testing

/// The brief cache of social's "these two are friends".
@Suite struct FriendshipCacheTests {
    private let anna = UserID.generate(at: Date())
    private let ben = UserID.generate(at: Date())
    private let cleo = UserID.generate(at: Date())

    @Test func aPairIsKnownInEitherOrder() {
        let cache = FriendshipCache(lifetime: .seconds(30), capacity: 10)
        #expect(cache.knownFriends(anna, ben) == false)
        cache.rememberFriends(anna, ben)
        #expect(cache.knownFriends(ben, anna))
        #expect(cache.knownFriends(anna, cleo) == false)
    }

    @Test func aPairPastItsLifetimeIsNoLongerKnown() {
        let cache = FriendshipCache(lifetime: .zero, capacity: 10)
        cache.rememberFriends(anna, ben)
        #expect(cache.knownFriends(anna, ben) == false)
    }

    @Test func atCapacityOldPairsMakeRoom() {
        let cache = FriendshipCache(lifetime: .seconds(30), capacity: 2)
        cache.rememberFriends(anna, ben)
        cache.rememberFriends(anna, cleo)
        cache.rememberFriends(ben, cleo)
        #expect(cache.knownFriends(ben, cleo))
        #expect(cache.knownFriends(anna, ben) == false)
    }
}
