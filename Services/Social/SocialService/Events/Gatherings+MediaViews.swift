import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `RequestMediaView`, and learning a guardian's answer when an event is read.
extension Gatherings {
    /// Asks a guardian to let the caller see flagged item `id`, which their content filtering hides;
    /// answers family's approval request, the pending one again while it waits. MEDIA_NOT_HIDDEN when the
    /// item is shown to them already; CONTENT_FILTERED when it is filtered for everyone, or its event for
    /// them.
    func requestView(of id: MediaID, as caller: Caller, forwarding metadata: Metadata) async throws
        -> ApprovalID
    {
        let viewer = try EventViewer(caller)
        guard let item = try await EventMediaStore.item(id, viewer: viewer.id, on: database) else {
            throw SocialError.mediaNotFound
        }
        let seen = try await openEvent(item.eventID, for: viewer, missing: SocialError.mediaNotFound)
        if item.reported { throw SocialError.eventFiltered }
        let controls = try await controls(of: viewer, when: item.flagged)
        try seen.requireUnfiltered(by: controls)
        guard let settled = try await settleViewApprovals([item], of: viewer.id).first,
            settled.isHidden(filtering: controls.filtersContent)
        else { throw SocialError.mediaNotHidden }
        if let pending = settled.approval, pending.state == .pending { return pending.id }
        let subject = EventApprovalStore.Subject.mediaView(mediaID: id)
        let approvalID = try await family.requestApproval(
            of: subject, summary: seen.event.mediaViewSummary(contentType: item.contentType),
            minorID: viewer.id, forwarding: metadata)
        try await EventApprovalStore.keepPending(approvalID, of: viewer.id, for: subject, on: database)
        return approvalID
    }

    /// `media` with family's answers to the viewer's pending approvals of hidden items, asked at once; each
    /// decision is kept, so later reads need not ask again.
    func settleViewApprovals(_ media: [EventMedia], of viewerID: UserID) async throws -> [EventMedia] {
        try await withThrowingTaskGroup(of: (Int, StoredApproval?).self) { group in
            for (index, item) in media.enumerated() {
                guard item.awaitsDecision, let approval = item.approval else { continue }
                group.addTask {
                    (index, try await decision(on: approval, of: viewerID, for: .mediaView(mediaID: item.id)))
                }
            }
            var settled = media
            for try await (index, approval) in group { settled[index].approval = approval }
            return settled
        }
    }

    /// Pending `approval` as family answers it now, its decision kept; nil when family no longer knows it.
    func decision(on approval: StoredApproval, of minorID: UserID, for subject: EventApprovalStore.Subject)
        async throws -> StoredApproval?
    {
        guard let state = try await family.state(of: approval.id) else { return nil }
        let answered = StoredApproval(id: approval.id, state: state)
        if answered.state != .pending {
            try await EventApprovalStore.record(answered, of: minorID, for: subject, on: database)
        }
        return answered
    }
}
