import KindredHandlers
import KindredMessages

/// One vote as a follower casts it: a category and the guess in it.
enum BabyVote: Sendable, Equatable {
    case birthDate(CalendarDate)
    case gender(Kindred_Gamification_V1_BabyVoteGender)
    case name(String)

    /// The longest name a vote or a suggestion may carry, in characters.
    static let longestName = 50

    /// The category as `baby_votes.category` stores it.
    var category: Int {
        switch self {
        case .birthDate: 1
        case .gender: 2
        case .name: 3
        }
    }

    /// The request's profile and vote, every bad field named at once.
    static func parse(_ request: Kindred_Gamification_V1_CastBabyVoteRequest) throws -> (
        BabyProfileID, BabyVote
    ) {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        var vote: BabyVote?
        switch request.vote {
        case .birthDate(let date):
            vote = CalendarDate(date).map(BabyVote.birthDate)
            if vote == nil { violations.add("birth_date", "must be a real date from 1900 on") }
        case .gender(let gender):
            vote = gender == .girl || gender == .boy ? .gender(gender) : nil
            if vote == nil {
                violations.add("gender", "must be BABY_VOTE_GENDER_GIRL or BABY_VOTE_GENDER_BOY")
            }
        case .name(let name):
            vote = BabyVote.name(name, field: "name", into: &violations).map(BabyVote.name)
        case nil:
            violations.add("vote", "must name a birth_date, a gender or a name")
        }
        return try violations.throwIfAny(profile, vote)
    }

    /// `text` trimmed, when it is a name: 1 to `longestName` characters, no control characters.
    static func name(_ text: String, field: String, into violations: inout FieldViolations) -> String? {
        let name = String(
            text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if name.isEmpty {
            violations.add(field, "must not be empty")
        } else if name.count > longestName {
            violations.add(field, "must be at most \(longestName) characters")
        } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            violations.add(field, "must not contain control characters")
        } else {
            return name
        }
        return nil
    }
}
