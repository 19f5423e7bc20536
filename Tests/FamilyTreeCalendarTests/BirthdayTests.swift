import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeCalendar

func day(_ text: String) -> Int { PartialDate(text)!.anchor.earliestDayNumber! }

@Suite struct CountdownTests {
    @Test(arguments: [
        ("2026-01-01", "2026-01-01", "today"),
        ("2026-01-01", "2026-01-02", "1 day"),
        ("2026-01-01", "2026-01-30", "29 days"),
        ("2026-01-01", "2026-01-31", "30 days"),
        ("2026-01-01", "2026-02-01", "1 month"),
        ("2026-04-01", "2026-05-01", "1 month"),      // 30 days, and a whole month
        ("2026-04-01", "2026-04-30", "29 days"),
        ("2026-01-31", "2026-03-02", "1 month"),      // 30 days in a short February
        ("2026-01-31", "2026-02-28", "1 month"),      // a short month is complete on its last day
        ("2026-01-31", "2026-02-27", "27 days"),
        ("2026-03-15", "2027-03-14", "11 months"),    // the day after a birthday: 364 days
        ("2026-03-15", "2027-02-15", "11 months"),
        ("2026-03-15", "2027-02-14", "10 months"),
    ])
    func wording(from: String, to: String, expected: String) {
        #expect(Countdown(from: day(from), to: day(to)).description == expected)
    }

    @Test func aBirthdayYesterdayIsElevenMonthsAwayNeverTwelve() throws {
        let yearly = try #require(YearlyDate(PartialDate("1990-06-10")!))
        let today = day("2026-06-11")
        let next = yearly.next(onOrAfter: today, leapDay: .march1)
        #expect(BirthdayListFormat.isoDate(next) == "2027-06-10")
        #expect(Countdown(from: today, to: next).description == "11 months")
        #expect(Countdown(from: day("2026-06-10"), to: yearly.next(onOrAfter: day("2026-06-10"), leapDay: .march1)).description == "today")
    }
}

@Suite struct LeapDayTests {
    let leapling = PartialDate("2000-02-29")!

    @Test func leapDayBirthdaysInCommonYearsFollowTheRule() throws {
        let yearly = try #require(YearlyDate(leapling))
        #expect(BirthdayListFormat.isoDate(yearly.next(onOrAfter: day("2027-01-01"), leapDay: .march1)) == "2027-03-01")
        #expect(BirthdayListFormat.isoDate(yearly.next(onOrAfter: day("2027-01-01"), leapDay: .february28)) == "2027-02-28")
        #expect(BirthdayListFormat.isoDate(yearly.next(onOrAfter: day("2028-01-01"), leapDay: .february28)) == "2028-02-29")
    }

    @Test func theAgeGoesUpOnTheDayTheRuleNames() {
        #expect(Age(birthday: leapling, on: day("2027-02-28"), leapDay: .february28)?.years == 27)
        #expect(Age(birthday: leapling, on: day("2027-02-28"), leapDay: .march1)?.years == 26)
        #expect(Age(birthday: leapling, on: day("2027-03-01"), leapDay: .march1)?.years == 27)
        #expect(Age(birthday: leapling, on: day("2028-02-29"), leapDay: .march1)?.years == 28)
    }
}

@Suite struct BirthdayListTests {
    let graph: FamilyGraph
    let today = day("2026-11-22")

    init() throws {
        let members = [
            Member(id: "dad", firstName: "Walter", lastName: "Hale", nickname: "Dad", birthday: PartialDate("1963-02-02")),
            Member(id: "ann", firstName: "Ann", lastName: "Hale", birthday: PartialDate("--11-22")),
            Member(id: "bo", firstName: "Bo", lastName: "Hale", birthday: PartialDate("about 1990")),
            Member(id: "cy", firstName: "Cy", lastName: "Adams", birthday: PartialDate("2026-11-22")),
            Member(id: "di", firstName: "Di", lastName: "Zane", birthday: PartialDate("1950-12-01")),
            Member(id: "ed", firstName: "Ed", lastName: "Old", birthday: PartialDate("1900-01-05"), deathDate: PartialDate("1980-06-01")),
            Member(id: "fay", firstName: "Fay", lastName: "Hale", birthday: PartialDate("1999-12-24")),
            Member(id: "gus", firstName: "Gus", lastName: "Hale", birthday: PartialDate("about 1981-08-15")),
        ]
        graph = try FamilyGraph(members: members)
    }

    func names(_ sort: BirthdaySort) -> [String] {
        BirthdayList(graph: graph, today: today).sorted(by: sort).entries.map(\.name)
    }

    @Test func eachSort() {
        #expect(names(.name) == ["Ann Hale", "Cy Adams", "Dad", "Di Zane", "Fay Hale", "Gus Hale"])
        #expect(names(.age) == ["Di Zane", "Dad", "Gus Hale", "Fay Hale", "Cy Adams", "Ann Hale"])
        #expect(names(.birthday) == ["Dad", "Gus Hale", "Ann Hale", "Cy Adams", "Di Zane", "Fay Hale"])
        #expect(names(.next) == ["Ann Hale", "Cy Adams", "Di Zane", "Fay Hale", "Dad", "Gus Hale"])
    }

    @Test func agesCountdownsAndTheUnknown() throws {
        let list = BirthdayList(graph: graph, today: today)
        let entry = { (id: String) in list.entries.first { $0.memberID == id }! }
        #expect(entry("dad").age?.description == "63" && entry("dad").turning?.years == 64 && entry("dad").countdown.description == "2 months")
        #expect(entry("ann").age == nil && entry("ann").countdown.description == "today")
        #expect(entry("cy").age?.description == "0" && entry("cy").countdown.description == "today", "born today is age 0")
        #expect(entry("di").countdown.description == "9 days")
        #expect(entry("gus").age?.description == "~45", "an approximate year gives an approximate age")
        // "about 1990" has no day to celebrate: not listed.
        #expect(!list.entries.contains { $0.memberID == "bo" })
        #expect(!list.entries.contains { $0.memberID == "ed" }, "the deceased only on request")
        let all = BirthdayList(graph: graph, today: today, includeDeceased: true)
        #expect(all.entries.first { $0.memberID == "ed" }?.age?.description == "80")
        #expect(BirthdayListFormat.table(all, highlight: false).contains("†80"))
    }

    @Test func withinAndFormats() throws {
        let soon = BirthdayList(graph: graph, today: today).sorted(by: .next).within(days: 30)
        #expect(soon.entries.map(\.memberID) == ["ann", "cy", "di"])
        let table = BirthdayListFormat.table(soon, highlight: true)
        #expect(table.contains("\u{1B}[31m9 days\u{1B}[0m"))
        #expect(!BirthdayListFormat.table(soon, highlight: false).contains("\u{1B}"))
        let csv = BirthdayListFormat.csv(soon)
        #expect(csv.hasPrefix("id,name,birthday,age,next_birthday,days_until,countdown,turns,deceased\r\n"))
        #expect(csv.contains("di,Di Zane,1950-12-01,75,2026-12-01,9,9 days,76,false\r\n"))
        let json = try JSONParser.parse(BirthdayListFormat.json(soon)).root
        guard case .array(let rows) = json else { Issue.record("not an array"); return }
        #expect(rows.count == 3 && rows[0]["age"] == .null && rows[2]["turns"] == .number("76"))
    }
}

@Suite struct MonthGridTests {
    /// Months that start on each weekday: 2026-06 Mon, 2025-07 Tue, 2026-04 Wed, 2026-01 Thu,
    /// 2026-05 Fri, 2025-11 Sat, 2026-02 Sun.
    @Test(arguments: [(2026, 6, Weekday.monday), (2025, 7, .tuesday), (2026, 4, .wednesday), (2026, 1, .thursday),
                      (2026, 5, .friday), (2025, 11, .saturday), (2026, 2, .sunday)])
    func paddingDaysFillWholeWeeks(year: Int, month: Int, starts: Weekday) {
        let first = CalendarDate.dayNumber(year: year, month: month, day: 1)
        #expect(Weekday(dayNumber: first) == starts)
        for firstWeekday in [Weekday.monday, .sunday] {
            let grid = MonthGrid(year: year, month: month, firstWeekday: firstWeekday)
            let days = grid.weeks.flatMap { $0 }
            #expect(grid.weeks.allSatisfy { $0.count == 7 })
            #expect(Weekday(dayNumber: days[0].dayNumber) == firstWeekday)
            let leading = (starts.rawValue - firstWeekday.rawValue + 7) % 7
            #expect(days.prefix(leading).allSatisfy { $0.isPadding })
            #expect(!days[leading].isPadding && days[leading].dayOfMonth == 1)
            let inMonth = days.filter { !$0.isPadding }
            #expect(inMonth.count == CalendarDate.daysIn(month: month, year: year))
            #expect(days.count - leading - inMonth.count < 7, "no week of padding only")
            #expect(zip(days, days.dropFirst()).allSatisfy { $1.dayNumber == $0.dayNumber + 1 })
        }
    }

    @Test func localesChooseTheFirstWeekday() {
        #expect(Weekday.firstOfWeek(locale: "en_US.UTF-8") == .sunday)
        #expect(Weekday.firstOfWeek(locale: "de_DE.UTF-8") == .monday)
        #expect(Weekday.firstOfWeek(locale: "C.UTF-8") == .monday)
        #expect(Weekday.firstOfWeek(locale: nil) == .monday)
    }
}
