import Testing
@testable import FamilyTree

@Suite struct PartialDateTests {
    @Test(arguments: [
        ("1850", "1850"), ("1850-03", "1850-03"), ("1850-03-02", "1850-03-02"), ("--03-02", "--03-02"), ("--0229", "--02-29"),
        ("about 1850", "about 1850"), ("ABT 1850", "about 1850"), ("~1850-05", "about 1850-05"), ("circa 1850", "about 1850"),
        ("before 1850", "before 1850"), ("BEF 1850-06", "before 1850-06"), ("after 1850", "after 1850"), ("aft 1850", "after 1850"),
        ("between 1850 and 1860", "between 1850 and 1860"), ("bet 1850-01 and 1850-06", "between 1850-01 and 1850-06"),
        ("1985-04-15T08:00:00Z", "1985-04-15"), ("2000-02-29", "2000-02-29"),
    ])
    func parsesEveryForm(text: String, canonical: String) throws {
        let date = try #require(PartialDate(text))
        #expect(date.description == canonical)
        #expect(PartialDate(date.description) == date)
    }

    @Test(arguments: ["", "1850-13", "1850-02-30", "1900-02-29", "--02-30", "18500", "1850-3", "about", "between 1860 and 1850",
                      "before --03-02", "yesterday", "1850-03-02-01", "0000"])
    func rejectsNonDates(text: String) {
        #expect(PartialDate(text) == nil)
    }

    @Test func monthDayWithoutYearHasNoSortKey() throws {
        let date = try #require(PartialDate("--07-14"))
        #expect(date.sortKey == nil)
        #expect(date.anchor.year == nil && date.anchor.month == 7 && date.anchor.day == 14)
        #expect(date.displayText == "Jul 14")
    }

    @Test func sortKeysFollowEarliestPossibleDayThenPrecision() throws {
        func key(_ text: String) throws -> PartialDate.SortKey { try #require(PartialDate(text)?.sortKey) }
        #expect(try key("1850-01-01") < key("1850-01"))
        #expect(try key("1850-01") < key("1850"))
        #expect(try key("1850") < key("about 1850"))
        #expect(try key("before 1850") < key("1850"))
        #expect(try key("1849-12-31") < key("before 1850"))
        #expect(try key("1850-12-31") < key("after 1850"))
        #expect(try key("after 1850") < key("1851-01-02"))
        #expect(try key("between 1850 and 1860") > key("1850"))
        #expect(try key("between 1850 and 1860") < key("1850-01-02"))
    }

    @Test func dayNumbersRoundTripAcrossCenturies() {
        for day in stride(from: -200_000, through: 200_000, by: 997) {
            let date = CalendarDate.date(fromDayNumber: day)
            #expect(CalendarDate.dayNumber(year: date.year, month: date.month, day: date.day) == day)
        }
        #expect(CalendarDate.dayNumber(year: 1970, month: 1, day: 1) == 0)
        #expect(CalendarDate.dayNumber(year: 2000, month: 3, day: 1) - CalendarDate.dayNumber(year: 2000, month: 2, day: 28) == 2)
    }

    @Test func ages() throws {
        let today = CalendarDate.dayNumber(year: 2026, month: 11, day: 22)
        #expect(Age(birthday: try #require(PartialDate("1963-02-02")), on: today)?.description == "63")
        #expect(Age(birthday: try #require(PartialDate("1963-11-22")), on: today)?.description == "63")
        #expect(Age(birthday: try #require(PartialDate("1963-11-23")), on: today)?.description == "62")
        #expect(Age(birthday: try #require(PartialDate("2026-11-22")), on: today)?.description == "0")
        #expect(Age(birthday: try #require(PartialDate("1963")), on: today)?.description == "~62")
        #expect(Age(birthday: try #require(PartialDate("--02-02")), on: today) == nil)
        #expect(Age(birthday: try #require(PartialDate("2027-01-01")), on: today) == nil)
        // February 29: reached on March 1 in a common year.
        let leap = try #require(PartialDate("2000-02-29"))
        #expect(Age(birthday: leap, on: CalendarDate.dayNumber(year: 2001, month: 2, day: 28))?.years == 0)
        #expect(Age(birthday: leap, on: CalendarDate.dayNumber(year: 2001, month: 3, day: 1))?.years == 1)
    }
}

@Suite struct SiblingOrderTests {
    struct Child { var name: String; var birthday: String? }

    func order(_ children: [Child]) -> [String] {
        SiblingOrder.sorted(children) { $0.birthday.flatMap(PartialDate.init) }.map(\.name)
    }

    @Test func datedSiblingsSortEarliestFirst() {
        #expect(order([.init(name: "c", birthday: "1990"), .init(name: "a", birthday: "1980-05-01"), .init(name: "b", birthday: "about 1985")]) == ["a", "b", "c"])
    }

    @Test func undatedSiblingsKeepTheirPlaces() {
        let children: [Child] = [.init(name: "x", birthday: nil), .init(name: "late", birthday: "1990"), .init(name: "y", birthday: "--03-02"), .init(name: "early", birthday: "1980")]
        #expect(order(children) == ["x", "early", "y", "late"])
    }

    @Test func tiesAreStableAndPrecisionBreaksEqualDays() {
        let children: [Child] = [.init(name: "year", birthday: "1980"), .init(name: "twin1", birthday: "1980-01-01"), .init(name: "twin2", birthday: "1980-01-01"), .init(name: "month", birthday: "1980-01")]
        #expect(order(children) == ["twin1", "twin2", "month", "year"])
    }
}
