import FoundationEssentials
public import KindredAuth

extension ServiceCommand {
    /// `kindred-<service> keys rotate-data`: re-seals every sealed column `columns` lists under the first data
    /// key of the service's keyring, one column after another, while instances serve; prints a line per column
    /// (`<name>: <values re-sealed>`) and logs the same.
    public static func rotateData(
        service: String,
        columns: @escaping @Sendable (ServiceEnvironment, FieldCipher) -> [any SealedColumn]
    ) -> ServiceCommand {
        ServiceCommand(
            words: ["keys", "rotate-data"],
            summary:
                "Seal every encrypted column under the first data key (needs the database and the data keys).",
            action: .withDatabase { environment in
                let cipher = try FieldCipher.configured(for: service, in: ProcessInfo.processInfo.environment)
                for column in columns(environment, cipher) {
                    let resealed = try await column.resealAll()
                    environment.logger.notice(
                        "sealed under the current data key",
                        metadata: [
                            "column": "\(column.name)", "key": "\(cipher.keyring.current.id)",
                            "resealed": "\(resealed)",
                        ])
                    print("\(column.name): \(resealed)")
                }
            })
    }
}
