import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `JoinEvent` and `LeaveEvent`.
extension Gatherings {
    /// Joins event `id` if the caller may see it and it is not filtered for them; joining twice changes
    /// nothing. A minor who needs a guardian's approval to join events of people they do not follow gets
    /// GUARDIAN_APPROVAL_REQUIRED with family's request (asked on the first try) until a guardian decides;
    /// then the same call joins, or is GUARDIAN_DENIED for good. A minor's join of a public event is told to
    /// their guardians (`event.joined`, with the join).
    func join(_ id: EventID, as caller: Caller, forwarding metadata: Metadata) async throws
        -> Kindred_Social_V1_SocialEvent
    {
        let viewer = try EventViewer(caller)
        var seen = try await openEvent(id, for: viewer)
        let approvalMayApply = !seen.joined && !seen.followsOrganizer && !viewer.organizes(seen.event)
        let controls = try await controls(
            of: viewer, when: seen.event.mature || seen.hasFlaggedMedia || approvalMayApply)
        try seen.requireUnfiltered(by: controls)
        if !seen.joined {
            if approvalMayApply, controls.requiresJoinApproval {
                try await requireJoinApproval(of: viewer.id, to: seen.event, forwarding: metadata)
            }
            seen = try await enter(seen, as: viewer)
        }
        return try await present([seen], to: viewer, filtering: controls.filtersContent)[0]
    }

    /// Leaves event `id`; leaving one not joined changes nothing. NOT_FOUND only for an event the caller
    /// neither attends nor may see.
    func leave(_ id: EventID, as caller: Caller) async throws {
        let viewer = try EventViewer(caller)
        guard try await !EventParticipationStore.leave(viewer.id, id, on: database) else { return }
        _ = try await visibleEvent(id, for: viewer)
    }

    /// Returns once a guardian approved `minorID`'s join of `event`; refuses while nobody decided (asking
    /// family on the first try) and for good once a guardian declined.
    private func requireJoinApproval(of minorID: UserID, to event: EventRecord, forwarding metadata: Metadata)
        async throws
    {
        let subject = EventApprovalStore.Subject.join(eventID: event.id)
        var kept = try await EventApprovalStore.approval(of: minorID, for: subject, on: database)
        if let pending = kept, pending.state == .pending {
            kept = try await decision(on: pending, of: minorID, for: subject)
        }
        guard let kept else {
            let approvalID = try await family.requestApproval(
                of: subject, summary: event.joinSummary, minorID: minorID, forwarding: metadata)
            try await EventApprovalStore.keepPending(approvalID, of: minorID, for: subject, on: database)
            throw SocialError.guardianApprovalRequired(approvalID)
        }
        switch kept.state {
        case .approved: return
        case .denied: throw SocialError.guardianDenied
        case .pending: throw SocialError.guardianApprovalRequired(kept.id)
        }
    }

    /// Adds `viewer` to the attendees of `seen`, with `event.joined` in the same transaction when a minor
    /// joins a public event (once: a join that finds them attending already appends nothing).
    private func enter(_ seen: ViewedEvent, as viewer: EventViewer) async throws -> ViewedEvent {
        let now = clock.now
        let event = seen.event
        let attendees = try await database.transaction { tx in
            let (added, attendees) = try await EventParticipationStore.join(
                viewer.id, event.id, at: now, in: tx)
            if added, viewer.isMinor, event.isPublic {
                let payload = try Kindred_Social_V1_Event(payload: event.joined(by: viewer.id))
                    .serializedBytes()
                try await SocialEvents.outbox.append(
                    type: "event.joined", payload: payload, sealedWith: cipher, in: tx)
            }
            return attendees
        }
        var entered = seen
        entered.joined = true
        entered.event.attendeeCount = attendees
        return entered
    }
}
