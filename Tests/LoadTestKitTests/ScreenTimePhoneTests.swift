import LoadTestKit
import Testing

@Suite struct ScreenTimePhoneTests {
    typealias Session = ScreenTimePhone.Session

    // The session in progress grows under one id until it has lasted two minutes; the next upload then starts
    // the next app's session where the last version sent ended (the user switched app some time after it).
    @Test func eachUploadSendsTheSessionInProgressAndSwitchesAppAfterTwoMinutes() {
        var phone = ScreenTimePhone(idPrefix: "u7", apps: ["a", "b"])
        let uploads = [1_000, 1_005, 1_059, 1_060, 1_065, 1_178, 1_190, 1_200].map { phone.upload(at: $0) }
        #expect(
            uploads == [
                Session(id: "u7-0", app: "a", start: 940, end: 1_000),
                Session(id: "u7-0", app: "a", start: 940, end: 1_005),
                Session(id: "u7-0", app: "a", start: 940, end: 1_059),
                Session(id: "u7-1", app: "b", start: 1_059, end: 1_060),
                Session(id: "u7-1", app: "b", start: 1_059, end: 1_065),
                Session(id: "u7-1", app: "b", start: 1_059, end: 1_178),
                Session(id: "u7-2", app: "a", start: 1_178, end: 1_190),
                Session(id: "u7-2", app: "a", start: 1_178, end: 1_200),
            ])
    }

    // Whatever the spacing of the uploads, the last versions of a phone's sessions never overlap (one app in the
    // foreground at a time) and each version is at least as long as the one it replaces.
    @Test(arguments: [1, 3, 7, 45, 200])
    func sessionsNeverOverlapAndVersionsOnlyGrow(every spacing: Int) {
        var phone = ScreenTimePhone(idPrefix: "u", apps: ["a", "b", "c"])
        var last: [String: Session] = [:]
        for now in stride(from: Int64(10_000), to: 20_000, by: spacing) {
            let version = phone.upload(at: now)
            #expect(version.start < version.end && version.end <= now)
            if let before = last[version.id] {
                #expect(
                    before.start == version.start && before.app == version.app && before.end <= version.end)
            }
            last[version.id] = version
        }
        let ordered = last.values.sorted { $0.start < $1.start }
        #expect(ordered.count > 1)
        for (earlier, later) in zip(ordered, ordered.dropFirst()) { #expect(earlier.end <= later.start) }
    }

    // Two uploads in the same second (the open loop can start a user's calls together) send the same version:
    // the second is a retry, which the server stores nothing for, never an older version.
    @Test func aClockThatHasNotMovedSendsTheSameVersionAgain() {
        var phone = ScreenTimePhone(idPrefix: "u", apps: ["a"])
        _ = phone.upload(at: 5_000)
        let grown = phone.upload(at: 5_200)
        #expect(phone.upload(at: 5_200) == grown)
        #expect(phone.upload(at: 5_100) == grown)
    }
}
