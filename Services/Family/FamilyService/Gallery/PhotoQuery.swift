import KindredHandlers
import KindredMessages
import KindredRPC

/// A `ListPhotosRequest` whose fields were checked: the one profile it names (nil: every profile of the
/// reader's) and the page asked for.
struct PhotoQuery: Sendable {
    let profile: BabyProfileID?
    let page: ContentPage<PhotoID>

    /// The query `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListPhotosRequest) throws(RPCError) {
        var violations = FieldViolations()
        profile = request.profileID.isEmpty ? nil : violations.id("profile_id", request.profileID)
        page = ContentPage(request.page, list: "photos", keyFields: 1, &violations) { PhotoID($0[0]) }
        try violations.throwIfAny()
    }
}
