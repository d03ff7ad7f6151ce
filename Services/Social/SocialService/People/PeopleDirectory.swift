import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime

/// The people social has met, by id or username: from `social.people` when known, otherwise asked of
/// identity once with social's own client_credentials token and remembered. Every user a part stores a row
/// about was looked up here first, so lists can join `social.people` for usernames.
struct PeopleDirectory: Sendable {
    let identity: Kindred_Identity_V1_IdentityService.Client
    let credentials: ServiceCredentials
    let database: PostgresPool
    let clock: WallClock

    init(identityTarget: String, credentials: ServiceCredentials, database: PostgresPool, clock: WallClock)
        throws(RPCError)
    {
        identity = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: identityTarget))
        self.credentials = credentials
        self.database = database
        self.clock = clock
    }

    /// The person with id `userID`; USER_NOT_FOUND when identity has no such account.
    func person(_ userID: UserID) async throws -> Person {
        try await person(userID, known: try await PeopleStore.find(id: userID, on: database))
    }

    /// `known` when social has met the person (a statement of the caller's read their row), else the person
    /// with id `userID` as identity knows them, remembered; USER_NOT_FOUND when identity has no such account.
    func person(_ userID: UserID, known: Person?) async throws -> Person {
        if let known { return known }
        let response = try await PeerCall.run("identity") {
            try await identity.getAccount(
                .init(userID: userID.description),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true))
        } notFound: {
            SocialError.userNotFound
        }
        guard case .account(let account) = response.view else {
            // Services always get the owner's view; anything else means identity changed its rules.
            throw RPCError.internalError("identity answered a service with the public view of an account")
        }
        return try await remember(
            Person(id: userID, username: account.username, minor: account.ageBand != .ageBand18Plus))
    }

    /// The person whose username is `username`, whatever its case; USER_NOT_FOUND when there is none (or the
    /// name is not one identity allows, which callers check first to name the bad field).
    func person(username: String) async throws -> Person {
        guard Person.isWellFormed(username: username) else { throw SocialError.userNotFound }
        if let known = try await PeopleStore.find(username: username, on: database) { return known }
        // Identity's search finds minors by their exact username only, which is what this asks.
        let found = try await PeerCall.run("identity") {
            try await identity.searchUsers(
                .init(usernamePrefix: username, page: Kindred_Common_V1_PageRequest(pageSize: 10)),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true))
        } notFound: {
            SocialError.userNotFound
        }
        guard let match = found.users.first(where: { $0.username.lowercased() == username.lowercased() }),
            let id = UserID(match.userID)
        else {
            throw SocialError.userNotFound
        }
        return try await person(id)
    }

    private func remember(_ person: Person) async throws -> Person {
        try await PeopleStore.remember(person, at: clock.now, on: database)
        return person
    }
}
