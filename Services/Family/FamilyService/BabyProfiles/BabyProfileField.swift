import KindredHandlers
import KindredMessages

/// A field of a baby profile an owner may change, named in `update_mask` by its proto name.
enum BabyProfileField: String, CaseIterable, Sendable {
    case name
    case expectedBirthDate = "expected_birth_date"
    case gender
    case photoID = "profile_photo_id"

    /// Sets `fields`' value of this field to its value in `profile`, or records in `violations` why it
    /// cannot be stored (the field named `profile.<name>`).
    func take(
        from profile: Kindred_Family_V1_BabyProfile, into fields: inout BabyProfileStore.Fields,
        _ violations: inout FieldViolations
    ) {
        let path = "profile.\(rawValue)"
        switch self {
        case .name:
            fields.name = BabyProfileDraft.name(profile.name, field: path, &violations)
        case .expectedBirthDate:
            fields.expectedBirthDate = BabyProfileDraft.birthDate(
                profile.expectedBirthDate, field: path, &violations)
        case .gender:
            fields.gender = BabyProfileDraft.gender(profile.gender, field: path, &violations)
        case .photoID:
            // Empty clears the photo; whether an id is one of the profile's photos is read in the update's
            // transaction (`BabyPhotoStore.holdPhoto`).
            fields.photoID =
                profile.profilePhotoID.isEmpty ? nil : violations.id(path, profile.profilePhotoID)
        }
    }
}
