import KindredAPI
import KindredMessages
import KindredRPC

extension LoadRun {
    /// Each service the users call answers a health check, or the run stops with what to do.
    func checkReachable() async throws {
        for service in ServiceTargets.services {
            let address = options.targets[service]
            var configuration = ClientConfiguration()
            configuration.maxAttempts = 1
            configuration.logger.logLevel = .critical
            options.targets.configure(&configuration)
            do {
                let client = try RPCClient(target: address, configuration: configuration)
                defer { client.close() }
                let answer = try await Grpc_Health_V1_Health.Client(client).check(
                    .init(), options: CallOptions(timeout: .seconds(5)))
                guard answer.status == .serving else {
                    throw ToolError(
                        "\(service) at \(address) is not serving yet: wait for it, then run again.")
                }
            } catch let error as RPCError {
                throw ToolError(
                    "Cannot reach \(service) at \(address) (\(error.code)): start the stack (deploy/local/up) "
                        + "or point --targets at it.")
            }
        }
    }

    /// The first user's session resumes, or the stack does not hold this seed's users.
    func checkSeeded(_ user: VirtualUser) async throws {
        do {
            _ = try await user.authorizedOptions()
        } catch let error as RPCError where error.code == .unauthenticated || error.code == .invalidArgument {
            throw ToolError(
                "This stack does not know the users of \(options.seedFile) (identity refused user 0's refresh "
                    + "token): seed it (kindred-loadtest seed --users N --seed-file \(options.seedFile)), or, "
                    + "if a run was cut short before saving \(options.seedFile).sessions, seed with a new --seed-file."
            )
        } catch let error as RPCError {
            throw ToolError("Resuming user 0's session failed (\(error.code)): see identity's log.")
        }
    }
}
