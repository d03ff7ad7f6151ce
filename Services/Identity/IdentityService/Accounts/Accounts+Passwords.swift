import KindredAuth
import KindredRPC

/// The password hasher, with its refusals in the words of an RPC.
extension Accounts {
    /// A new Argon2id hash of `password`.
    func hashPassword(_ password: String) async throws(RPCError) -> String {
        do {
            return try await passwords.hash(password)
        } catch {
            logger.warning("password hashing refused", metadata: ["error": "\(error)"])
            throw AccountError.busy
        }
    }

    /// Whether `password` matches the stored `hash`.
    func passwordMatches(_ password: String, hash: String) async throws(RPCError) -> Bool {
        do {
            return try await passwords.verify(password, against: hash) != .mismatch
        } catch {
            logger.warning("password verification refused", metadata: ["error": "\(error)"])
            throw AccountError.busy
        }
    }

    /// Checks the password given again for a sensitive change of the account `accountID`.
    func confirmPassword(_ password: String, accountID: String) async throws {
        guard let hash = try await AccountStore.passwordHash(id: accountID, on: database) else {
            throw AccountError.noAccount
        }
        guard try await passwordMatches(password, hash: hash) else { throw AccountError.wrongPassword }
    }
}
