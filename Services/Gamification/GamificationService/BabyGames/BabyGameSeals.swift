import KindredAuth
import KindredHandlers

/// What an arrival revealed, as `gamification.baby_games` keeps it (gamification migration 18): the baby's
/// birth date and name sealed together under gamification's data keys, bound to the profile, so a dump shows
/// only whether and when a profile's votes were revealed, and the gender. Games revealed before sealing keep
/// their plaintext until `kindred-gamification keys rotate-data` seals it (`BabyGameRotation`).
struct BabyGameSeals: Sendable {
    let cipher: FieldCipher

    /// `birthDate` and `name` sealed for `profile`.
    func seal(birthDate: CalendarDate?, name: String, of profile: BabyProfileID) -> [UInt8] {
        cipher.seal(Array("\(birthDate?.iso ?? "")|\(name)".utf8), context: Self.context(profile))
    }

    /// The birth date and name a game's row holds: sealed, or the plaintext columns from before sealing.
    func open(plainDate: String?, plainName: String?, sealed: [UInt8]?, of profile: BabyProfileID) throws
        -> (birthDate: CalendarDate?, name: String)
    {
        guard let sealed else {
            return (plainDate.flatMap(CalendarDate.init(iso:)), plainName ?? "")
        }
        let text = String(decoding: try cipher.open(sealed, context: Self.context(profile)), as: UTF8.self)
        // The date is empty or ISO, never holding a bar: the first one ends it, whatever the name holds.
        let bar = text.firstIndex(of: "|") ?? text.endIndex
        let name = bar == text.endIndex ? "" : String(text[text.index(after: bar)...])
        return (CalendarDate(iso: String(text[..<bar])), name)
    }

    private static func context(_ profile: BabyProfileID) -> String {
        "gamification.baby_games.arrival/\(profile)"
    }
}
