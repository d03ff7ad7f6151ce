import KindredRPC

/// Who may call a method, as its proto comment and its service's README say. Every expected answer of a row is
/// derived from this, so a wrong caller let through, or refused with the wrong answer, fails its cell.
enum MatrixPolicy: Sendable {
    /// No token needed: every caller gets past authorization (the request itself may still be refused).
    case publicMethod
    /// Any person with an account (an admin's too), about themself: a service is refused.
    case account
    /// Any valid token: people, services and admins.
    case anyCaller
    /// Kindred services only (client_credentials).
    case serviceOnly
    /// Admins only (role admin).
    case adminOnly
    /// Services and admins.
    case serviceOrAdmin
    /// The baby profile's members (owners and followers); anyone else is told it does not exist.
    case profileMember
    /// The profile's owners; a follower is refused, anyone else is told it does not exist.
    case profileOwner
    /// The profile's followers; an owner is refused, anyone else is told it does not exist.
    case profileFollower
    /// The cast's minor's guardian; any other person is told the minor does not exist; services and admins get
    /// `principals`.
    case minorsGuardian(principals: Expectation)
    /// The two people in the cast's conversation (the owner and the follower); anyone else: not found.
    case conversationMember
    /// Exactly these callers; anyone else with an account (admins too) gets `others`, a service PERMISSION_DENIED.
    case only(Set<CallerKind>, others: Expectation)
    /// Each caller's answer named; anyone else with an account gets `others`, a service not named is refused.
    case each([CallerKind: Expectation], others: Expectation = .hidden)
}

/// What a cell must answer.
enum Expectation: Equatable, CustomStringConvertible {
    /// Past authorization: OK, a validation answer, or (for a stream) still open at the deadline.
    case allowed
    case unauthenticated
    /// PERMISSION_DENIED.
    case denied
    /// NOT_FOUND, exactly as for an id that names nothing.
    case hidden
    /// PERMISSION_DENIED, exactly as for an id that names nothing: the refusal says nothing of the thing.
    case deniedAsForNothing

    var description: String {
        switch self {
        case .allowed: "allowed"
        case .unauthenticated: "UNAUTHENTICATED"
        case .denied: "PERMISSION_DENIED"
        case .hidden: "NOT_FOUND as for nothing"
        case .deniedAsForNothing: "PERMISSION_DENIED as for nothing"
        }
    }
}

extension MatrixRow {
    /// The answer `caller` must get on this row's method.
    func expectation(for caller: CallerKind, readOnly: Bool) -> Expectation {
        if case .publicMethod = policy { return .allowed }
        if caller.isUnauthenticated { return .unauthenticated }
        if caller == .childMode {
            // The owner's account on a device in child mode: it may read what the owner may read, and change
            // nothing but the way out of child mode.
            return readOnly || childModeMayCall ? expectation(for: .owner, readOnly: readOnly) : .denied
        }
        if usersOnly && caller == .admin { return .denied }
        return policy.expectation(for: caller)
    }
}

extension MatrixPolicy {
    func expectation(for caller: CallerKind) -> Expectation {
        let person = caller != .service && caller != .admin
        // An admin signs in to an account of their own, so rules about "the caller's own" apply to them, and a
        // profile they are not a member of does not exist for them (baby_profiles.proto).
        let hasAccount = caller != .service
        switch self {
        case .publicMethod, .anyCaller: return .allowed
        case .account: return hasAccount ? .allowed : .denied
        case .serviceOnly: return caller == .service ? .allowed : .denied
        case .adminOnly: return caller == .admin ? .allowed : .denied
        case .serviceOrAdmin: return person ? .denied : .allowed
        case .profileMember: return Self.onProfile(caller, allowed: [.owner, .follower], refused: [])
        case .profileOwner: return Self.onProfile(caller, allowed: [.owner], refused: [.follower])
        case .profileFollower: return Self.onProfile(caller, allowed: [.follower], refused: [.owner])
        case .minorsGuardian(let principals):
            return !person ? principals : caller == .guardian ? .allowed : .hidden
        case .conversationMember:
            return !hasAccount ? .denied : [.owner, .follower].contains(caller) ? .allowed : .hidden
        case .only(let allowed, let others):
            return allowed.contains(caller) ? .allowed : hasAccount ? others : .denied
        case .each(let answers, let others):
            return answers[caller] ?? (hasAccount ? others : .denied)
        }
    }

    /// A service is refused; a member the rule names is let by or refused; anyone else (an admin's account
    /// too) is told the profile does not exist.
    private static func onProfile(_ caller: CallerKind, allowed: Set<CallerKind>, refused: Set<CallerKind>)
        -> Expectation
    {
        caller == .service || refused.contains(caller)
            ? .denied : allowed.contains(caller) ? .allowed : .hidden
    }
}
