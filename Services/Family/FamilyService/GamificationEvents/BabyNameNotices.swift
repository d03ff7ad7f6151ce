import KindredAPI
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime

/// What family does with gamification's events: a baby-name suggestion becomes a notice to the profile's owners
/// but the suggester, and a like of someone's suggestion a notice to the suggester, each unless the recipient
/// left the profile or switched the kind off. A notice is named after its suggestion (and liker), so an event
/// seen again tells nobody twice.
struct BabyNameNotices: Sendable {
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
        let notices = BabyNameNotices(clock: context.clock, seals: BabySeals(cipher: context.cipher))
        return EventConsumer(
            source: "gamification", schema: "family", pool: context.database, logger: context.logger,
            fetch: { after in
                ServiceCallStream(credentials: credentials) { options in
                    gamification.watchEvents(.init(afterCursor: after), options: options)
                }
            },
            handle: { event, tx in try await notices.apply(event, in: tx) })
    }

    /// Applies one event; kinds other than `baby_name.suggested` and `baby_name.liked` are not family's concern.
    func apply(_ event: Kindred_Gamification_V1_Event, in tx: PostgresTransaction) async throws {
        switch event.payload {
        case .babyNameSuggested(let suggested): try await tellOwners(suggested, in: tx)
        case .babyNameLiked(let liked): try await tellSuggester(liked, in: tx)
        default: return
        }
    }

    /// The owners but the suggester hear of a new suggestion, in-app and push, once per suggestion; nobody
    /// once the profile is deactivated, and no owner who muted the kind.
    private func tellOwners(
        _ suggested: Kindred_Gamification_V1_BabyNameSuggested, in tx: PostgresTransaction
    ) async throws {
        guard let profile = BabyProfileID(suggested.profileID),
            let suggester = UserID(suggested.suggestedByUserID),
            let names = try await BabyNameNoticeStore.suggestionNames(
                profile: profile, suggester: suggester, seals: seals, in: tx)
        else { return }
        let notice = Notice(
            kind: .babyNameSuggested, title: names.profile,
            body:
                "\(names.suggester.isEmpty ? "Someone" : names.suggester) suggested the name \(suggested.name)."
        )
        BabyNoticeStore.post(
            notice, text: notice.sealedText(with: seals.cipher), to: .owners, of: profile, except: suggester,
            dedupKey: "baby_name.suggested:\(suggested.suggestionID)", at: clock.now, in: tx)
    }

    /// The suggester hears who liked their suggestion, once per liker.
    private func tellSuggester(_ liked: Kindred_Gamification_V1_BabyNameLiked, in tx: PostgresTransaction)
        async throws
    {
        guard let profile = BabyProfileID(liked.profileID), let suggester = UserID(liked.suggestedByUserID),
            let liker = UserID(liked.likedByUserID),
            let names = try await BabyNameNoticeStore.noticeNames(
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
