import KindredAuth
import KindredHandlers
import KindredPostgres

/// Guardian approvals: a minor (or a service acting for them) asks, the minor's guardians are told and one of
/// them decides, once; the decision is an `approval.decided` event and a notice to the minor. Each rule takes
/// the caller explicitly, so it is tested without a server; the RPC handlers only translate. Rules are in
/// `Approvals+*.swift`, their SQL in `ApprovalStore*.swift`.
struct Approvals: Sendable {
    let database: PostgresPool
    let clock: WallClock
    /// Family's data keys, which seal the notices a request and a decision post.
    let cipher: FieldCipher

    init(database: PostgresPool, cipher: FieldCipher, clock: WallClock) {
        self.database = database
        self.cipher = cipher
        self.clock = clock
    }

    init(context: FamilyContext) {
        self.init(database: context.database, cipher: context.cipher, clock: context.clock)
    }
}
