import KindredRuntime

/// `kindred-family keys rotate-data`.
enum FamilyCommands {
    static let all = [rotateData]

    /// Seals every sealed column of family under the first data key; safe while instances serve.
    static let rotateData = ServiceCommand.rotateData(service: "family") { environment, cipher in
        BabySealRotation.all(database: environment.database, cipher: cipher)
    }
}
