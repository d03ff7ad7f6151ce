import KindredAuth

/// The clients that may use the `client_credentials` grant: the other services and operators' tools, from
/// the file `KINDRED_IDENTITY_CLIENTS_FILE` names. One client per line, `#` starts a comment:
///
///     # client id   role      Argon2id hash of its secret (kindred-identity clients hash-secret)   permissions
///     family        service   $argon2id$v=19$m=65536,t=2,p=1$...$...                                device_modes
///     ops-console   admin     $argon2id$v=19$m=65536,t=2,p=1$...$...
///
/// Secrets are never stored, only their hashes; a `service` client's tokens have role `service`, an `admin`
/// client's role `admin`, both with the client id as `sub`. The optional fourth column lists, separated by
/// commas, what the client may do beyond its role (`Permission`).
struct ClientRegistry: Sendable {
    struct Client: Sendable, Equatable {
        let id: String
        let role: TokenClaims.Role
        let secretHash: String
        var permissions: Set<Permission> = []
    }

    /// What a client may do that its role alone does not allow.
    enum Permission: String, Sendable, CaseIterable {
        /// `IssueDeviceModeTokens`: tokens for a family device's child or parent mode, on the client's word.
        case deviceModes = "device_modes"
    }

    let clients: [String: Client]

    /// Secrets are generated, not chosen (`head -c 32 /dev/urandom | base64`): shorter ones are refused.
    static let shortestSecret = 32

    /// No clients: every `client_credentials` grant is refused.
    static let none = ClientRegistry(clients: [:])

    private init(clients: [String: Client]) {
        self.clients = clients
    }

    /// Reads the clients file's text; a bad line is an error naming its number.
    init(parsing text: String) throws(ClientFileError) {
        var clients: [String: Client] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace).map(String.init)
            guard !fields.isEmpty else { continue }
            let number = index + 1
            guard (3...4).contains(fields.count) else {
                throw ClientFileError(line: number, "want: client-id role hash [permission,...]")
            }
            guard Self.isClientID(fields[0]) else {
                throw ClientFileError(line: number, "a client id is 1-64 of a-z, 0-9, '-' and '_'")
            }
            guard let role = TokenClaims.Role(rawValue: fields[1]), role != .user else {
                throw ClientFileError(line: number, "the role is service or admin")
            }
            guard fields[2].hasPrefix("$argon2id$") else {
                throw ClientFileError(line: number, "the hash is an Argon2id PHC string ($argon2id$...)")
            }
            guard clients[fields[0]] == nil else {
                throw ClientFileError(line: number, "\(fields[0]) is listed twice")
            }
            let permissions = try Self.permissions(fields.count == 4 ? fields[3] : "", line: number)
            clients[fields[0]] = Client(
                id: fields[0], role: role, secretHash: fields[2], permissions: permissions)
        }
        self.clients = clients
    }

    /// Whether a token with `caller`'s claims comes from a `service` client allowed `permission`.
    func allows(_ caller: Caller, _ permission: Permission) -> Bool {
        guard caller.role == .service, let id = caller.clientID else { return false }
        return clients[id]?.permissions.contains(permission) == true
    }

    /// The client `id` and `secret` authenticate, after one Argon2id verification whether or not `id` exists.
    func authenticate(id: String, secret: String, passwords: PasswordHasher) async throws -> Client {
        guard let client = clients[id] else {
            try await hashing { try await passwords.verifyAgainstDecoy(secret) }
            throw IdentityError.invalidClient
        }
        let verification = try await hashing {
            try await passwords.verify(secret, against: client.secretHash)
        }
        guard case .match = verification else { throw IdentityError.invalidClient }
        return client
    }

    private static func permissions(_ text: String, line: Int) throws(ClientFileError) -> Set<Permission> {
        var permissions: Set<Permission> = []
        for name in text.split(separator: ",") {
            guard let permission = Permission(rawValue: String(name)) else {
                let known = Permission.allCases.map(\.rawValue).joined(separator: ", ")
                throw ClientFileError(line: line, "unknown permission \(name) (known: \(known))")
            }
            permissions.insert(permission)
        }
        return permissions
    }

    private static func isClientID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }
}

/// A line of the clients file that cannot be read.
struct ClientFileError: Error, Equatable, CustomStringConvertible {
    let line: Int
    let problem: String

    init(line: Int, _ problem: String) {
        self.line = line
        self.problem = problem
    }

    var description: String { "line \(line): \(problem)" }
}
