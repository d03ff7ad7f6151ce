import KindredHandlers
import KindredMessages
import KindredRPC

/// Which stages' suggestions `ListSuggestions` asks for: the catalogue is organized by the stages of the
/// baby's life, and an owner may browse any of them, not only the one the baby is in.
enum SuggestionStages: Sendable, Equatable {
    /// The baby's current stage, from the expected birth date.
    case current
    /// One stage, whatever the baby's age.
    case one(BabyStage)
    /// Every stage, in stage order.
    case all
}

/// A `ListSuggestionsRequest` whose fields were checked: the profile and the stages asked for.
struct SuggestionQuery: Sendable, Equatable {
    let profile: BabyProfileID
    let stages: SuggestionStages

    /// The query `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListSuggestionsRequest) throws(RPCError) {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let stage = request.stage
        if case .unrecognized = stage { violations.add("stage", "is not a stage this service knows") }
        if request.allStages, stage != .unspecified {
            violations.add("all_stages", "must not be set together with stage")
        }
        self.profile = try violations.throwIfAny(profile)
        stages = request.allStages ? .all : stage == .unspecified ? .current : .one(stage)
    }
}

extension BabyStage {
    /// The stages the catalogue has suggestions for, in the order of the baby's life.
    static let catalogued: [BabyStage] = (trimester1.rawValue...month12.rawValue).map {
        BabyStage(rawValue: $0)
    }
}
