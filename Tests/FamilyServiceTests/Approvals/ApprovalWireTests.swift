@testable import FamilyService
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Approvals through the real servers: a minor asks, a guardian decides, a service watching the events hears
/// it; and who may call what, with tokens identity issued.
@Suite struct ApprovalWireTests {
    @Test func aDecisionReachesAServiceWatchingTheEvents() async throws {
        try await FamilyTestStack.with { stack in
            let mia = try await stack.register("mia_w", age: 15)
            let mum = try await stack.register("mum_w", age: 41)
            try await ApprovalTest.link(guardian: mum.id, minor: mia.id, stack.pool)
            let service = try await stack.serviceBearer()
            let watching = Task { () -> Kindred_Family_V1_Event? in
                for try await event in stack.family.watchEvents(.init(afterCursor: 0), options: service) {
                    return event
                }
                return nil
            }
            let asked = try #require(
                try await stack.family.createApprovalRequest(
                    .init(
                        minorUserID: mia.id, kind: .joinEvent, subjectID: "event-42",
                        summary: "Join 'Beach cleanup'"),
                    options: mia.bearer
                ).approval)
            #expect(asked.state == .pending && asked.minorUserID == mia.id)
            let pending = try await stack.family.listApprovalRequests(
                .init(state: .pending), options: mum.bearer)
            #expect(pending.approvals == [asked] && pending.page?.nextPageToken == "")

            let decided = try #require(
                try await stack.family.decideApprovalRequest(
                    .init(approvalID: asked.approvalID, approve: true), options: mum.bearer
                ).approval)
            #expect(decided.state == .approved && decided.decidedBy == mum.id && decided.decidedAt != nil)
            let event = try await watching.value
            #expect(event?.type == "approval.decided" && event?.cursor == 1)
            #expect(event?.payload == .approvalDecided(.init(approval: decided)))
            let checked = try await stack.family.getApprovalRequest(
                .init(approvalID: asked.approvalID), options: service)
            #expect(checked.approval == decided)
        }
    }

    @Test func eachCallerMayDoOnlyTheirPart() async throws {
        try await FamilyTestStack.with { stack in
            let (mia, mum, ola) = (
                try await stack.register("mia_p", age: 15), try await stack.register("mum_p", age: 41),
                try await stack.register("ola_p", age: 30)
            )
            try await ApprovalTest.link(guardian: mum.id, minor: mia.id, stack.pool)
            let service = try await stack.serviceBearer()
            let family = stack.family
            let ask = Kindred_Family_V1_CreateApprovalRequestRequest(
                minorUserID: mia.id, kind: .viewFlaggedMedia, subjectID: "media-7",
                summary: "See a flagged photo")
            let asked = try #require(try await family.createApprovalRequest(ask, options: service).approval)
            let id = asked.approvalID
            #expect(try await family.createApprovalRequest(ask, options: mia.bearer).approval == asked)

            let expectations: [(RPCError?, StatusCode, String?)] = [
                (
                    await rpcError {
                        try await family.createApprovalRequest(ask, options: FamilyTestStack.bearer(nil))
                    },
                    .unauthenticated, "TOKEN_MISSING"
                ),
                (
                    await rpcError { try await family.createApprovalRequest(ask, options: ola.bearer) },
                    .permissionDenied, "APPROVAL_NOT_YOURS"
                ),
                (
                    await rpcError {
                        try await family.createApprovalRequest(
                            .init(minorUserID: ola.id, kind: .joinEvent, subjectID: "e", summary: "s"),
                            options: ola.bearer)
                    }, .failedPrecondition, "NOT_A_MINOR"
                ),
                (
                    await rpcError {
                        try await family.getApprovalRequest(.init(approvalID: id), options: ola.bearer)
                    },
                    .notFound, "APPROVAL_NOT_FOUND"
                ),
                (
                    await rpcError {
                        try await family.decideApprovalRequest(
                            .init(approvalID: id, approve: true), options: mia.bearer)
                    }, .permissionDenied, "ONLY_GUARDIAN_MAY_DECIDE"
                ),
                (
                    await rpcError {
                        try await family.decideApprovalRequest(
                            .init(approvalID: id, approve: true), options: ola.bearer)
                    }, .notFound, "APPROVAL_NOT_FOUND"
                ),
                (
                    await rpcError { try await family.listApprovalRequests(.init(), options: service) },
                    .permissionDenied, "ROLE_NOT_ALLOWED"
                ),
                (
                    await rpcError { for try await _ in family.watchEvents(.init(), options: mia.bearer) {} },
                    .permissionDenied, "ROLE_NOT_ALLOWED"
                ),
                (
                    await rpcError {
                        for try await _ in family.watchEvents(.init(afterCursor: -1), options: service) {}
                    },
                    .invalidArgument, nil
                ),
            ]
            for (refusal, code, reason) in expectations {
                #expect(refusal?.code == code)
                #expect(refusal?.reason == reason)
            }
            #expect(
                try await family.getApprovalRequest(.init(approvalID: id), options: mia.bearer).approval
                    == asked)
            #expect(try await family.listApprovalRequests(.init(), options: mia.bearer).approvals == [asked])
        }
    }

    /// The handlers parse the approval id once, at the edge: any case of a UUID names the request, anything
    /// else is INVALID_ARGUMENT naming `approval_id`.
    @Test func anApprovalIdIsParsedAtTheEdge() async throws {
        try await FamilyTestStack.with { stack in
            let mia = try await stack.register("mia_e", age: 15)
            let mum = try await stack.register("mum_e", age: 41)
            try await ApprovalTest.link(guardian: mum.id, minor: mia.id, stack.pool)
            let asked = try #require(
                try await stack.family.createApprovalRequest(
                    .init(minorUserID: mia.id, kind: .joinEvent, subjectID: "event-9", summary: "Join"),
                    options: mia.bearer
                ).approval)
            let shouted = try await stack.family.getApprovalRequest(
                .init(approvalID: asked.approvalID.uppercased()), options: mia.bearer)
            #expect(shouted.approval == asked)
            for malformed in ["", "42"] {
                let read = await rpcError {
                    try await stack.family.getApprovalRequest(
                        .init(approvalID: malformed), options: mia.bearer)
                }
                let decided = await rpcError {
                    try await stack.family.decideApprovalRequest(
                        .init(approvalID: malformed, approve: true), options: mum.bearer)
                }
                #expect(read?.badFields == ["approval_id"] && decided?.badFields == ["approval_id"])
            }
        }
    }
}
