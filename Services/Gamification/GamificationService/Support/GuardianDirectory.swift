import KindredAPI
import KindredHandlers
import KindredRPC

/// Who guards whom, as gamification needs it; family owns guardian links and answers for them.
protocol GuardianDirectory: Sendable {
    /// Whether `caller`, whose request metadata (their token) is `requestMetadata`, guards `child`.
    func guards(_ child: UserID, caller: UserID, forwarding requestMetadata: Metadata) async throws -> Bool
}

/// Guardian links asked of family's `ListGuardianLinks` with the caller's own token, so family decides whom
/// the caller guards, for every call and without a cache: a removed link stops the guardian at once. A
/// child-mode token may ask too (the method changes nothing), which is what a guardian's read needs.
struct FamilyGuardians: GuardianDirectory {
    let client: Kindred_Family_V1_FamilyService.Client

    init(familyTarget: String) throws(RPCError) {
        client = Kindred_Family_V1_FamilyService.Client(try RPCClient(target: familyTarget))
    }

    func guards(_ child: UserID, caller: UserID, forwarding requestMetadata: Metadata) async throws -> Bool {
        var options = CallOptions(timeout: .seconds(5), idempotent: true)
        options.forwardAuthorization(from: requestMetadata)
        let links = try await PeerCall.run("family", passingRefusals: true) {
            try await client.listGuardianLinks(.init(), options: options).links
        }
        return links.contains { UserID($0.minorUserID) == child && UserID($0.guardianUserID) == caller }
    }
}
