import KindredHandlers
import KindredMessages
import KindredRPC

/// `ListMyBabyProfiles`: the app's profile switcher.
extension BabyProfiles {
    /// A page of `reader`'s active profiles, owned first, then followed, each with the reader's role.
    func myProfiles(_ reader: UserID, page request: Kindred_Common_V1_PageRequest?) async throws
        -> Kindred_Family_V1_ListMyBabyProfilesResponse
    {
        let page = try BabyPage(request, list: "baby_profiles", fields: 3)
        let fetched = try await BabyProfileStore.page(
            of: reader, after: try page.memberPosition(), limit: page.size + 1, seals: seals, on: database)
        let (profiles, next) = page.cut(fetched) { page.token(after: $0.position) }
        return Kindred_Family_V1_ListMyBabyProfilesResponse(profiles: profiles.map(\.proto), page: next)
    }
}
