// Debug builds only (the services are testable there): see Tests/ServiceTestSupport/README.md.
#if DEBUG
import KindredHandlers
@testable import ServiceTestSupport

extension TestUser {
    /// The user's id as social's rules take it; identity issued it, so it parses.
    var userID: UserID { UserID(id)! }
}
#endif
