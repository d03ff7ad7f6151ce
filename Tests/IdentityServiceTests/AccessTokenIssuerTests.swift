import Foundation
@testable import IdentityService
import Testing

@Suite("Access tokens: the jti")
struct AccessTokenIssuerTests {
    @Test func eachTokenIDIsANewVersionSevenUUIDInLowercaseEvenWithinOneMillisecond() {
        let now = Date()
        let ids = (0..<1_000).map { _ in AccessTokenIssuer.tokenID(at: now) }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let characters = Array(id)
            #expect(UUID(uuidString: id) != nil)
            #expect(id == id.lowercased())
            #expect(characters[14] == "7", "version 7: time, then random bits")
            #expect("89ab".contains(characters[19]), "the RFC 9562 variant")
        }
    }
}
