import KindredAPI
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
    func account(_ userID: String) async throws(RPCError) -> Kindred_Identity_V1_Account {
        let response = try await client.getAccount(
            .init(userID: userID), options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true))
        guard case .account(let account) = response.view else {
            // Services always get the owner's view; anything else means identity changed its rules.
            throw RPCError(.internal, "identity answered a service with the public view of an account")
        }
        return account
    }
}
