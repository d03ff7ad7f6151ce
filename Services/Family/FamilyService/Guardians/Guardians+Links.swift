import KindredAuth
import KindredHandlers

/// `ListGuardianLinks` and `RemoveGuardianLink`.
extension Guardians {
    /// The caller's links both ways (their guardians, the minors they guard) and their pending invitations.
    func links(of caller: Caller) async throws
        -> (links: [GuardianLinkStore.Link], pending: [GuardianInvitationStore.Invitation])
    {
        guard let user = caller.accountUserID else { throw FamilyError.accountRequired }
        async let links = GuardianLinkStore.links(of: user, on: database)
        async let pending = GuardianInvitationStore.pending(
            minor: user, now: clock.now, emails: emails, on: database)
        return (try await links, try await pending)
    }

    /// Ends the link `linkID`: only its guardian may. The minor on it is told why not; anyone else hears that
    /// there is no such link, so nobody learns about other families.
    func remove(link linkID: GuardianLinkID, as caller: Caller) async throws {
        guard let user = caller.accountUserID else { throw FamilyError.guardianLinkNotFound }
        if try await GuardianLinkStore.delete(linkID, guardian: user, on: database) { return }
        guard let link = try await GuardianLinkStore.link(linkID, on: database), link.minorID == user else {
            throw FamilyError.guardianLinkNotFound
        }
        throw FamilyError.onlyGuardianMayRemove
    }
}
