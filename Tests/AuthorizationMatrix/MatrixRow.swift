import Foundation
import KindredHandlers

/// One method's row: who may call it, and the request each cell sends (built from the cast, so an allowed
/// caller names a real thing and a refused one is refused about a real thing).
struct MatrixRow: Sendable {
    /// `Service/Method`, as reflection lists it.
    let method: String
    let policy: MatrixPolicy
    let fields: @Sendable (Cast) -> [String: FieldValue]
    /// The method destroys what it acts on (a deletion, a member leaving): each principal's cell gets a profile
    /// of its own, made just before.
    var fresh = false
    /// The method ends a relation later rows need (a guardian link, an account): its row runs after the rest.
    var last = false
    /// Callable with a child-mode token though it changes something (`childModeMethods`).
    var childModeMayCall = false
    /// The NOT_FOUND reasons the method answers an allowed caller about something of its own (an unknown
    /// link, an arrival not announced yet): past authorization too. Any other NOT_FOUND fails the cell.
    var allowedNotFound: Set<String> = []
    /// Role `user` only (`authenticatedCaller(as: .user)`): an admin's account is refused, not told the
    /// profile does not exist.
    var usersOnly = false
}

/// A row; `fields` gets the cast.
func row(
    _ method: String, _ policy: MatrixPolicy, fresh: Bool = false, last: Bool = false,
    childMode: Bool = false, usersOnly: Bool = false, notFound: Set<String> = [],
    _ fields: @escaping @Sendable (Cast) -> [String: FieldValue] = { _ in [:] }
) -> MatrixRow {
    MatrixRow(
        method: method, policy: policy, fields: fields, fresh: fresh, last: last, childModeMayCall: childMode,
        allowedNotFound: notFound, usersOnly: usersOnly)
}

/// A new idempotency key, so every cell asks for a new change.
var newRequestID: FieldValue { .text(newRequestIDText) }
var newRequestIDText: String { UUIDv7.generate(at: Date()) }

/// A time 30 days from now, in seconds.
var inAMonth: FieldValue { .number(Int(Date().timeIntervalSince1970) + 30 * 86_400) }

/// Every row: adding an RPC without one here fails the matrix.
enum MatrixRows {
    static let all = identity + family + babyProfiles + babyContent + social + gamification
}
