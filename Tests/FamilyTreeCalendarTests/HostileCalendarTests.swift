import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeCalendar
@testable import FamilyTreeRender

/// The last representable days and hostile names, through every calendar output.
@Suite struct HostileCalendarTests {
    static func lastDaysGraph() throws -> FamilyGraph {
        try FamilyGraph(json: Array(#"""
        {"members": [
          {"id": "a", "firstName": "Ann\r\n=HYPERLINK(\"http://x\")", "birthday": "9999-12-31"},
          {"id": "=1+2", "firstName": "-Bob,\"q\"\u0301\u001b[2J", "birthday": "9999-01-05"},
          {"id": "c", "firstName": "Cy", "birthday": "--12-31"}
        ], "unions": [{"id": "u", "partners": ["a", "=1+2"], "marriage": "9999-12-31"}]}
        """#.utf8))
    }

    static let lastDay = CalendarDate.dayNumber(year: 9999, month: 12, day: 31)

    @Test func theDayAfter9999IsWrittenNotATrap() {
        #expect(BirthdayListFormat.isoDate(Self.lastDay) == "9999-12-31")
        #expect(BirthdayListFormat.isoDate(Self.lastDay + 1) == "10000-01-01")
        #expect(BirthdayListFormat.isoDate(CalendarDate.dayNumber(year: 1, month: 1, day: 1)) == "0001-01-01")
    }

    @Test func birthdayListsOnTheLastDayWorkInEveryFormat() throws {
        let list = BirthdayList(graph: try Self.lastDaysGraph(), today: Self.lastDay, includeDeceased: true)
        #expect(list.entries.count == 3)
        let json = BirthdayListFormat.json(list)
        #expect(json.contains("\"nextBirthday\": \"10000-01-05\""))
        _ = BirthdayListFormat.table(list, highlight: true)
    }

    @Test func monthAndYearPagesAndTheFeedAtTheEndOfTime() throws {
        let events = FamilyEvents(graph: try Self.lastDaysGraph())
        let renderer = CalendarSVGRenderer(today: Self.lastDay)
        let month = renderer.renderMonth(year: 9999, month: 12, events: events)
        #expect(month.contains("data-date=\"9999-12-31\""))
        #expect(month.contains("data-date=\"10000-01-01\""))
        let year = renderer.renderYear(9999, events: events)
        #expect(year.contains("data-month=\"9999-12\""))
        let ics = ICSWriter().write(events, today: Self.lastDay)
        // An event on the last day cannot end on a five-digit date: it lasts a day instead.
        #expect(ics.contains("DTSTART;VALUE=DATE:99991231\r\nDURATION:P1D\r\n"))
        #expect(!ics.contains("10000"))
    }

    @Test func csvCellsCannotSplitRowsOrRunFormulas() throws {
        let list = BirthdayList(graph: try Self.lastDaysGraph(), today: Self.lastDay)
        let csv = BirthdayListFormat.csv(list)
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        // A header and three rows: the CR/LF inside Ann's name stays inside its quoted cell.
        #expect(rows.count == 4)
        #expect(csv.contains("\r\n'=1+2,"))
        #expect(csv.contains("\"'-Bob,\"\"q\"\"\u{301}\\u{1B}[2J\""))
        #expect(!csv.unicodeScalars.contains("\u{1B}"))
        // Every line that starts a row starts with a field the spreadsheet reads as text.
        for row in rows.dropFirst() { #expect(!["=", "+", "-", "@"].contains(row.first.map(String.init) ?? "")) }
    }

    @Test func theTableShowsControlCharactersInsteadOfSendingThem() throws {
        let list = BirthdayList(graph: try Self.lastDaysGraph(), today: Self.lastDay)
        let table = BirthdayListFormat.table(list, highlight: false)
        #expect(!table.unicodeScalars.contains("\u{1B}"))
        #expect(table.contains(#"\u{1B}[2J"#))
        #expect(table.split(separator: "\n").count == 4)
    }

    @Test func icsTextCannotStartAProperty() throws {
        let events = FamilyEvents(graph: try Self.lastDaysGraph())
        let ics = ICSWriter().write(events, today: CalendarDate.dayNumber(year: 2026, month: 1, day: 1))
        let lines = ics.components(separatedBy: "\r\n")
        // Every physical line is a property (NAME:value / NAME;param) or a fold (leading space).
        for line in lines where !line.isEmpty {
            #expect(line.hasPrefix(" ") || line.range(of: #"^[A-Z-]+[:;]"#, options: .regularExpression) != nil, "\(line.debugDescription)")
        }
        #expect(!ics.contains("\n=HYPERLINK"))
        #expect(!ics.unicodeScalars.contains("\u{1B}"))
        // A quote with a combining mark is one Character; the comma after it is still escaped.
        #expect(ics.contains("\\,\"q\"\u{301}"))
    }
}
