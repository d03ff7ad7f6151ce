import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredRuntime

/// The identity service as family reaches it with its own client_credentials token: accounts (emails for
/// guardian mail, whether an email is verified, age bands), device-mode tokens, and identity's event stream.
struct IdentityDirectory: Sendable {
    let client: Kindred_Identity_V1_IdentityService.Client
    let credentials: ServiceCredentials

    init(target: String, credentials: ServiceCredentials) throws(RPCError) {
        client = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: target))
        self.credentials = credentials
    }

    /// The owner's view of `userID`'s account; NOT_FOUND when identity has no such account (deleted).
    func account(_ userID: UserID) async throws(RPCError) -> Kindred_Identity_V1_Account {
        let response: Kindred_Identity_V1_GetAccountResponse
        do {
            response = try await client.getAccount(
                .init(userID: userID.description),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true))
        } catch {
            throw Self.failure(error, asking: "GetAccount")
        }
        guard case .account(let account) = response.view else {
            // Services always get the owner's view; anything else means identity changed its rules.
            throw .internalError("identity answered a service with the public view of an account")
        }
        return account
    }

    /// Identity's failure as family's caller hears it: out of reach or out of time is UNAVAILABLE; an account
    /// that is gone, or a call its caller abandoned, as it is; any other refusal of family itself is a
    /// deployment fault, INTERNAL. Identity's own answer stays the cause, for the log.
    static func failure(_ answer: RPCError, asking method: String) -> RPCError {
        switch answer.code {
        case .unavailable, .deadlineExceeded: .unavailable(IdentityAnswer(method: method, answer: answer))
        case .notFound, .cancelled: answer
        default: .internalError(IdentityAnswer(method: method, answer: answer))
        }
    }
}

/// What identity answered one of family's calls: the cause of the answer family gives, named for the log.
struct IdentityAnswer: Error, CustomStringConvertible {
    let method: String
    let answer: RPCError

    var description: String { "identity answered family's \(method) with \(answer)" }
}
