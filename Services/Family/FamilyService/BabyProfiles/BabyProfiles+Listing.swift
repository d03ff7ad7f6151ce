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
        var position: BabyProfileStore.Position?
        if let fields = page.after {
            guard let role = Int(fields[0]).flatMap(BabyRole.init(rawValue:)),
                let joinedAt = Paging.instant(fields[1]), let profile = BabyProfileID(fields[2])
            else { throw BabyPage.foreignToken }
            position = .init(role: role, joinedAt: joinedAt, profile: profile)
        }
        var listed = try await BabyProfileStore.page(
            of: reader, after: position, limit: page.size + 1, on: database)
        var next = ""
        if listed.count > page.size {
            listed.removeLast()
            let last = listed[listed.count - 1]
            next = page.token(String(last.role.rawValue), Paging.field(last.joinedAt), last.id.description)
        }
        return Kindred_Family_V1_ListMyBabyProfilesResponse(
            profiles: listed.map(\.proto), page: Kindred_Common_V1_PageResponse(nextPageToken: next))
    }
}
