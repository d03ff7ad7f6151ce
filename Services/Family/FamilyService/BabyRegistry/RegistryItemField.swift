import FoundationEssentials
import KindredHandlers
import KindredMessages

/// What an owner writes of a registry item.
struct RegistryItemDetails: Sendable, Equatable {
    var name = ""
    var description = ""
    var linkURL = ""
}

/// A field of a registry item an owner sets, named in `update_mask` by its proto name.
enum RegistryItemField: String, ContentField {
    case name
    case description
    case linkURL = "link_url"

    /// The values of `fields` in `item`, trimmed, over `base`; each refused one is recorded as `item.<field>`.
    static func details(
        _ fields: [RegistryItemField], of item: Kindred_Family_V1_RegistryItem,
        over base: RegistryItemDetails,
        _ violations: inout FieldViolations
    ) -> RegistryItemDetails {
        var details = base
        for field in fields {
            switch field {
            case .name:
                details.name = ContentText.trimmed(item.name)
                violations.add("item.name", ContentText.problem(details.name, limit: 100, required: true))
            case .description:
                details.description = ContentText.trimmed(item.description)
                violations.add(
                    "item.description", ContentText.problem(details.description, limit: 500, required: false))
            case .linkURL:
                details.linkURL = item.linkURL
                violations.add("item.link_url", ContentText.httpsLinkProblem(item.linkURL))
            }
        }
        return details
    }
}

/// A registry item as members read it.
struct StoredRegistryItem: Sendable {
    let id: RegistryItemID
    let profile: BabyProfileID
    let details: RegistryItemDetails
    let createdAt: Date
    let updatedAt: Date
    let purchase: (buyer: UserID, at: Date)?

    /// The item once its purchase is taken back.
    var unbought: StoredRegistryItem {
        StoredRegistryItem(
            id: id, profile: profile, details: details, createdAt: createdAt, updatedAt: updatedAt,
            purchase: nil)
    }

    /// The item as the wire carries it.
    var proto: Kindred_Family_V1_RegistryItem {
        Kindred_Family_V1_RegistryItem(
            itemID: id.description, profileID: profile.description, name: details.name,
            description: details.description, linkURL: details.linkURL,
            createdAt: createdAt,
            updatedAt: updatedAt,
            purchase: purchase.map {
                Kindred_Family_V1_RegistryPurchase(
                    purchasedByUserID: $0.buyer.description, purchasedAt: $0.at)
            })
    }
}
