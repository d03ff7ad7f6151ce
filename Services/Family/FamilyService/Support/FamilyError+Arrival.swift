import KindredHandlers
import KindredRPC

/// The refusals of squishes and the arrival announcement.
extension FamilyError {
    /// The profile's arrival has not been announced.
    static let arrivalNotFound = refusal(
        .notFound, "ARRIVAL_NOT_FOUND", "This baby's arrival has not been announced yet.")

    /// A second announcement: the first is corrected with UpdateArrival instead.
    static let alreadyAnnounced = refusal(
        .failedPrecondition, "ALREADY_ANNOUNCED", "The arrival is already announced. Correct it instead.")
}
