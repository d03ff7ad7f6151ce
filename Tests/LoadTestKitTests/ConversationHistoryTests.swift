import LoadTestKit
import Testing

// Social numbers each recipient's messages 1, 2, 3… with no gap and no repeat (a unique index and WatchMessages'
// cursor rely on it); the seed computes the places instead of reading them back, so the layout must give
// exactly that for every user.
@Suite struct ConversationHistoryTests {
    /// Every seeded message as (recipient, place in its inbox).
    func places(users: Int, friendsPerSide: Int) -> [(recipient: Int, place: Int)] {
        let history = ConversationHistory(users: users, friendsPerSide: friendsPerSide)
        return (0..<users).flatMap { opener in
            (1...history.reach).flatMap { distance in
                (0..<ConversationHistory.messagesPerConversation).map { message in
                    let (openerReceives, place) = ConversationHistory.inboxPlace(
                        distance: distance, message: message)
                    return (openerReceives ? opener : (opener + distance) % users, place)
                }
            }
        }
    }

    @Test(arguments: [(3, 5), (11, 3), (200, 5)])
    func everyInboxIsNumberedOneToItsLengthWithoutGapOrRepeat(users: Int, friendsPerSide: Int) {
        let history = ConversationHistory(users: users, friendsPerSide: friendsPerSide)
        let byRecipient = Dictionary(grouping: places(users: users, friendsPerSide: friendsPerSide)) {
            $0.recipient
        }
        #expect(byRecipient.count == users)
        for (recipient, received) in byRecipient {
            #expect(
                received.map(\.place).sorted() == Array(1...history.inboxLength), "inbox of \(recipient)")
        }
    }

    // A conversation is one row per pair: the friends a user opens with are never the ones who opened with it.
    @Test func eachPairOfFriendsHasOneConversation() {
        let (users, reach) = (11, ConversationHistory(users: 11, friendsPerSide: 5).reach)
        var pairs = Set<[Int]>()
        for opener in 0..<users {
            for distance in 1...reach { pairs.insert([opener, (opener + distance) % users].sorted()) }
        }
        #expect(pairs.count == users * reach)
    }

    @Test func twoUsersGetNoConversationRatherThanTwoOfOnePair() {
        #expect(ConversationHistory(users: 2, friendsPerSide: 5).inboxLength == 0)
    }

    @Test func messageNumbersAreUnique() {
        let history = ConversationHistory(users: 50, friendsPerSide: 5)
        let numbers = (0..<50).flatMap { opener in
            (1...history.reach).flatMap { distance in
                (0..<ConversationHistory.messagesPerConversation).map {
                    history.messageNumber(opener: opener, distance: distance, message: $0)
                }
            }
        }
        #expect(Set(numbers).count == numbers.count)
    }
}
