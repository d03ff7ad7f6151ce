import FoundationEssentials
import KindredHandlers
import KindredMessages

/// A baby profile as one member reads it: its fields, the namesake's (the father's, else the creator's) last
/// name for the derived name, and the reader's role.
struct StoredBabyProfile: Sendable, Equatable {
    let id: BabyProfileID
    let createdBy: UserID
    /// Nil while the name is derived.
    let name: String?
    /// The namesake's (the father's, else the creating owner's) last name now; empty when unset or gone.
    let namesakeLastName: String
    let expectedBirthDate: BabyBirthDate?
    let gender: Kindred_Family_V1_BabyGender
    let photoID: PhotoID?
    let createdAt: Date
    let updatedAt: Date
    let role: BabyRole
    /// When the reader joined: where `ListMyBabyProfiles` pages.
    let joinedAt: Date

    /// Where the reader's list of profiles continues after this one.
    var position: BabyMemberPosition<IDKind.BabyProfile> {
        BabyMemberPosition(role: role, joinedAt: joinedAt, id: id)
    }

    /// The name to show: the one set, or "Baby <the father's last name>", or "Baby" with no last name.
    var displayName: String { BabyNames.profile(name: name, namesakeLastName: namesakeLastName) }

    /// The profile as the wire carries it.
    var proto: Kindred_Family_V1_BabyProfile {
        Kindred_Family_V1_BabyProfile(
            profileID: id.description, displayName: displayName, name: name ?? "",
            expectedBirthDate: expectedBirthDate?.proto, gender: gender,
            profilePhotoID: photoID?.description ?? "", role: role.proto,
            createdByUserID: createdBy.description, createdAt: createdAt,
            updatedAt: updatedAt)
    }
}
