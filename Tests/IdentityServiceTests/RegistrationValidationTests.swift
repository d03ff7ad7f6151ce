@testable import IdentityService
import FoundationEssentials
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// What `RegisterAccount` refuses before it touches the database: every bad field named in one error.
@Suite("Registration: field validation")
struct RegistrationValidationTests {
    static let today = CalendarDate(year: 2026, month: 6, day: 15)!

    static func problems(_ request: Kindred_Identity_V1_RegisterAccountRequest) -> RPCError? {
        do {
            _ = try Accounts.validate(request, today: today)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidRequestPasses() {
        #expect(Self.problems(TestAccounts.request()) == nil)
    }

    @Test func everyBadFieldIsNamedInOneInvalidArgument() throws {
        var request = TestAccounts.request()
        request.requestID = ""
        request.email = "not-an-email"
        request.username = "x"
        request.password = "short"
        request.dateOfBirth = DateComponents(year: 2023, month: 2, day: 29)
        let error = try #require(Self.problems(request))
        #expect(error.code == .invalidArgument)
        #expect(error.badFields == ["request_id", "email", "username", "password", "date_of_birth"])
    }

    @Test(arguments: ["ab", String(repeating: "a", count: 31), "mia r", "mia-r", "mía", "mia.r", ""])
    func usernamesOutsideThreeToThirtyWordCharactersAreRefused(username: String) throws {
        var request = TestAccounts.request()
        request.username = username
        #expect(try #require(Self.problems(request)).badFields == ["username"])
    }

    @Test(arguments: ["abc", String(repeating: "a", count: 30), "Mia_R_2010", "___"])
    func usernamesOfThreeToThirtyWordCharactersPass(username: String) {
        var request = TestAccounts.request()
        request.username = username
        request.email = "someone@example.com"
        #expect(Self.problems(request) == nil)
    }

    @Test(arguments: [
        "", "mia", "mia@", "@example.com", "mia@example", "mia@@example.com", "mia @example.com",
        "mia@exam_ple.com",
        "mia@-example.com", "mia..r@example.com", ".mia@example.com", "mía@example.com", "mia@example..com",
        String(repeating: "a", count: 65) + "@example.com",
        "mia@" + String(repeating: "a", count: 250) + ".com",
    ])
    func malformedEmailAddressesAreRefused(email: String) throws {
        var request = TestAccounts.request()
        request.email = email
        #expect(try #require(Self.problems(request)).badFields == ["email"])
    }

    @Test(arguments: [
        "mia@example.com", "Mia.R+kindred@mail.example.co.uk", "o'neil@example.org", "x@a-b.io",
    ])
    func wellFormedEmailAddressesPass(email: String) {
        var request = TestAccounts.request()
        request.email = email
        #expect(Self.problems(request) == nil)
    }

    @Test(arguments: [
        "abc1", "onlyletters", String(repeating: "a", count: 128) + "1", "MIA_R", "Mia_R@Example.com",
        "tab\t1234",
    ])
    func weakPasswordsAreRefused(password: String) throws {
        var request = TestAccounts.request("mia_r", email: "mia_r@example.com")
        request.password = password
        #expect(try #require(Self.problems(request)).badFields == ["password"])
    }

    @Test(arguments: ["abcde1", "pass word", "ünïcødé!", String(repeating: "a", count: 127) + "1"])
    func passwordsOfSixTo128WithADigitOrSymbolPass(password: String) {
        var request = TestAccounts.request()
        request.password = password
        #expect(Self.problems(request) == nil)
    }

    @Test(
        arguments: [
            (2026, 6, 16), (2027, 1, 1), (1899, 12, 31), (2023, 2, 29), (2024, 13, 1), (2024, 0, 1),
            (2024, 4, 31),
            (0, 0, 0),
        ] as [(Int, Int, Int)])
    func datesOfBirthInTheFutureBefore1900OrNotInTheCalendarAreRefused(year: Int, month: Int, day: Int)
        throws
    {
        var request = TestAccounts.request()
        request.dateOfBirth = DateComponents(year: year, month: month, day: day)
        #expect(try #require(Self.problems(request)).badFields == ["date_of_birth"])
    }

    @Test func aMissingDateOfBirthIsRefused() throws {
        var request = TestAccounts.request()
        request.dateOfBirth = nil
        #expect(try #require(Self.problems(request)).badFields == ["date_of_birth"])
    }

    @Test(arguments: [(1900, 1, 1), (2024, 2, 29), (2026, 6, 15)] as [(Int, Int, Int)])
    func realPastDatesFrom1900OnAreWellFormed(year: Int, month: Int, day: Int) {
        var request = TestAccounts.request()
        request.dateOfBirth = DateComponents(year: year, month: month, day: day)
        #expect(Self.problems(request) == nil)
    }

    @Test func requestIDsMustBePrintableAndAtMost128Characters() throws {
        for requestID in [String(repeating: "r", count: 129), "has space", "tab\there"] {
            var request = TestAccounts.request()
            request.requestID = requestID
            #expect(try #require(Self.problems(request)).badFields == ["request_id"])
        }
    }
}
