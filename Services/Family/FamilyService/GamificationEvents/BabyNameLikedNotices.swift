import KindredAPI
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime

/// What family does with gamification's events: a like of someone's baby-name suggestion becomes a notice to
/// the suggester, unless they left the profile or switched the kind off. The notice is named after the like
/// (one per liker and suggestion, and a like cannot be taken back), so an event seen again tells nobody twice.
struct BabyNameLikedNotices: Sendable {
    let clock: WallClock
    let seals: BabySeals

    /// Family's consumer of gamification's events at `gamificationTarget` (`host:port`), its cursor in
    /// `family.event_cursors` under `"gamification"`; run it until the drain.
    static func consumer(context: FamilyContext, gamificationTarget: String) throws(RPCError)
        -> EventConsumer<ServiceCallStream<Kindred_Gamification_V1_Event>>
    {
        let gamification = Kindred_Gamification_V1_GamificationService.Client(
            try RPCClient(target: gamificationTarget))
        let credentials = context.identity.credentials
        let notices = BabyNameLikedNotices(clock: context.clock, seals: BabySeals(cipher: context.cipher))
        return EventConsumer(
            source: "gamification", schema: "family", pool: context.database, logger: context.logger,
            fetch: { after in
                ServiceCallStream(credentials: credentials) { options in
                    gamification.watchEvents(.init(afterCursor: after), options: options)
                }
            },
            handle: { event, tx in try await notices.apply(event, in: tx) })
    }

    /// Applies one event; kinds other than `baby_name.liked` are not family's concern.
    func apply(_ event: Kindred_Gamification_V1_Event, in tx: PostgresTransaction) async throws {
        guard case .babyNameLiked(let liked) = event.payload,
            let profile = BabyProfileID(liked.profileID), let suggester = UserID(liked.suggestedByUserID),
            let liker = UserID(liked.likedByUserID),
            let names = try await BabyNameLikeStore.noticeNames(
                profile: profile, suggester: suggester, liker: liker, seals: seals, in: tx)
        else { return }
        let notice = Notice(
            kind: .babyNameLiked, title: names.profile,
            body: "\(names.liker.isEmpty ? "Someone" : names.liker) liked your name idea \(liked.name).",
            dedupKey: "baby_name.liked:\(liked.suggestionID):\(liker)")
        try await NotificationInbox.post(
            notice, to: suggester, at: clock.now, sealedWith: seals.cipher, in: tx)
    }
}
