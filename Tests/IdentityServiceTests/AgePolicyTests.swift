import Foundation
@testable import IdentityService
import KindredAuth
import KindredTestSupport
import Testing

@Suite("Age rule")
struct AgePolicyTests {
    static func date(_ text: String) -> CalendarDate {
        CalendarDate(iso: text)!
    }

    @Test(arguments: [
        // born, today, age
        ("2013-06-15", "2026-06-15", 13),  // the 13th birthday itself
        ("2013-06-16", "2026-06-15", 12),  // 13 tomorrow
        ("2013-06-14", "2026-06-15", 13),
        ("2008-03-01", "2026-02-28", 17),
        ("2008-02-29", "2026-02-28", 17),  // a leap-day birthday is not reached on 28 February...
        ("2008-02-29", "2026-03-01", 18),  // ...but on 1 March of a common year
        ("2008-02-29", "2028-02-29", 20),  // and on 29 February itself in a leap year
        ("2008-02-29", "2028-02-28", 19),
        ("1900-01-01", "2026-06-15", 126),
        ("2026-06-15", "2026-06-15", 0),
    ])
    func ageCountsCompletedYearsOnTheUTCDate(born: String, today: String, age: Int) {
        #expect(AgePolicy.age(bornOn: Self.date(born), on: Self.date(today)) == age)
    }

    @Test(
        arguments: [
            (12, nil), (13, TokenClaims.AgeBand.thirteenToFifteen), (15, .thirteenToFifteen),
            (16, .sixteenToSeventeen), (17, .sixteenToSeventeen), (18, .adult), (90, .adult),
        ] as [(Int, TokenClaims.AgeBand?)])
    func bandsAreThirteenToFifteenSixteenToSeventeenAndAdult(age: Int, band: TokenClaims.AgeBand?) {
        #expect(AgePolicy.band(forAge: age) == band)
    }

    @Test(arguments: [
        (2023, 2, 29), (2024, 13, 1), (2024, 0, 10), (2024, 4, 31), (1900, 2, 29), (2024, 1, 0),
    ])
    func impossibleCalendarDatesAreRefused(year: Int, month: Int, day: Int) {
        #expect(CalendarDate(year: year, month: month, day: day) == nil)
    }

    @Test(arguments: [(2024, 2, 29), (2000, 2, 29), (2026, 12, 31), (1900, 1, 1)])
    func realCalendarDatesAreAccepted(year: Int, month: Int, day: Int) {
        #expect(CalendarDate(year: year, month: month, day: day)?.description.isEmpty == false)
    }

    @Test func todayIsTheUTCDate() {
        #expect(CalendarDate(utcDayOf: TestClock.parse("2026-03-01T00:00:00Z")) == Self.date("2026-03-01"))
        #expect(CalendarDate(utcDayOf: TestClock.parse("2026-02-28T23:59:59Z")) == Self.date("2026-02-28"))
        #expect(
            CalendarDate(utcDayOf: TestClock.parse("2026-03-01T01:30:00+02:00")) == Self.date("2026-02-28"))
        #expect(CalendarDate(utcDayOf: TestClock.parse("1969-12-31T23:00:00Z")) == Self.date("1969-12-31"))
    }

    @Test func datesRoundTripThroughTheirISOText() {
        for text in ["1900-01-01", "2024-02-29", "0999-10-05"] {
            #expect(Self.date(text).description == text)
        }
        #expect(CalendarDate(iso: "2024-2-30") == nil)
    }

    @Test func addingDaysCrossesMonthsYearsAndLeapDays() {
        #expect(Self.date("2024-02-28").adding(days: 1) == Self.date("2024-02-29"))
        #expect(Self.date("2023-02-28").adding(days: 1) == Self.date("2023-03-01"))
        #expect(Self.date("2026-01-01").adding(days: -1) == Self.date("2025-12-31"))
        #expect(Self.date("2026-06-15").adding(days: -29) == Self.date("2026-05-17"))
    }
}
