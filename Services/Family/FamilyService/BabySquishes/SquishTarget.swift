import KindredHandlers
import KindredRPC

/// What members squish: a photo of the gallery, or the arrival announcement.
enum SquishTarget: Sendable, Equatable {
    case photo(PhotoID)
    case arrival

    /// The answer when the target is not on the profile.
    var notFound: RPCError {
        switch self {
        case .photo: FamilyError.photoNotFound
        case .arrival: FamilyError.arrivalNotFound
        }
    }

    /// What the activity log records of a squish (`squished`) or of one taken back; nil for none.
    func activity(squished: Bool) -> BabyActivityKind? {
        switch (self, squished) {
        case (.photo, true): .photoSquished
        case (.photo, false): .photoUnsquished
        case (.arrival, true): .arrivalSquished
        // Nothing counts arrival squishes elsewhere, so taking one back only moves the count.
        case (.arrival, false): nil
        }
    }

    /// The photo, as the activity's subject; nil for the announcement.
    var subject: PhotoID? {
        if case .photo(let photo) = self { photo } else { nil }
    }
}
