import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// A `CreateBabyProfileRequest` whose fields were checked: the idempotency key, an optional name of at most
/// 50 characters, an optional real expected birth date, a known gender, and how the creator is related to the
/// baby (an owner's relationship, or none said). The checks of each field are shared
/// with `UpdateBabyProfile` (`BabyProfileField`).
struct BabyProfileDraft: Sendable, Equatable {
    static let nameLength = 50

    let requestID: String
    let fields: BabyProfileStore.Fields
    let relationship: BabyRelationship

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_CreateBabyProfileRequest) throws(RPCError) {
        var violations = FieldViolations()
        violations.add("request_id", Guardians.requestIDProblem(request.requestID))
        var fields = BabyProfileStore.Fields()
        fields.name = Self.name(request.name, field: "name", &violations)
        fields.expectedBirthDate = Self.birthDate(
            request.expectedBirthDate, field: "expected_birth_date", &violations)
        fields.gender = Self.gender(request.gender, field: "gender", &violations)
        let relationship = BabyRelationship(request.relationship, other: "", &violations)
        violations.add("relationship", relationship?.problem(for: .owner))
        try violations.throwIfAny()
        requestID = request.requestID
        self.fields = fields
        self.relationship = relationship ?? .none
    }

    /// The name to store: nil (derived) for an empty one.
    static func name(_ text: String, field: String, _ violations: inout FieldViolations) -> String? {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            violations.add(field, "must not contain control characters")
        } else if text.count > nameLength {
            violations.add(field, "must be at most 50 characters")
        } else if !text.isEmpty, text.allSatisfy(\.isWhitespace) {
            violations.add(field, "must not be only whitespace")
        }
        return text.isEmpty ? nil : text
    }

    /// The date to store: nil when absent.
    static func birthDate(
        _ date: DateComponents?, field: String, _ violations: inout FieldViolations
    ) -> BabyBirthDate? {
        guard let date else { return nil }
        guard let birthDate = BabyBirthDate(date) else {
            violations.add(field, "must be a real date from the year 1900 on")
            return nil
        }
        return birthDate
    }

    /// `gender` when this service knows it.
    static func gender(
        _ gender: Kindred_Family_V1_BabyGender, field: String, _ violations: inout FieldViolations
    ) -> Kindred_Family_V1_BabyGender {
        if case .unrecognized = gender {
            violations.add(field, "is not a gender this service knows")
            return .unspecified
        }
        return gender
    }
}
