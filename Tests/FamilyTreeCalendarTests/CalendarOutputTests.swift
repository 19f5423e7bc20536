import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeCalendar
@testable import FamilyTreeRender
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

enum CalendarFiles {
    static let packageRoot = TestPaths.packageRoot

    static func exampleGraph() throws -> FamilyGraph {
        try FamilyGraph(json: Array(try Data(contentsOf: packageRoot.appendingPathComponent("examples/family.json"))))
    }

    /// Runs Python with `script` and `arguments`; returns its status and output.
    static func python(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.run("python3", ["-c", script] + arguments)
        return (result.status, result.stdout + result.stderr)
    }
}

@Suite struct ICSTests {
    /// Parses the feed with Python's icalendar (a real parser) and expands every RRULE with
    /// dateutil, printing `UID date` for each occurrence in 2027 and 2028.
    static let expand = """
    import sys
    from datetime import date, datetime
    from icalendar import Calendar
    from dateutil.rrule import rrulestr
    calendar = Calendar.from_ical(open(sys.argv[1], 'rb').read())
    assert str(calendar.get('VERSION')) == '2.0'
    for event in calendar.walk('VEVENT'):
        start = event.decoded('DTSTART')
        assert isinstance(start, date) and not isinstance(start, datetime), start
        first = datetime(start.year, start.month, start.day)
        rule = rrulestr(event.get('RRULE').to_ical().decode(), dtstart=first)
        for occurrence in rule.between(datetime(2027, 1, 1), datetime(2028, 12, 31), inc=True):
            print(str(event.get('UID')), occurrence.date().isoformat(), str(event.get('SUMMARY')))
    """

    func occurrences(_ ics: String) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-\(UUID().uuidString).ics")
        try ics.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CalendarFiles.python(ICSTests.expand, [file.path])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func aRealParserReadsTheFeedAndLeapDaysFollowTheRule() throws {
        let graph = try CalendarFiles.exampleGraph()
        let today = day("2026-11-22")
        for rule in LeapDayRule.allCases {
            let ics = ICSWriter().write(FamilyEvents(graph: graph, leapDay: rule), today: today)
            let lines = try occurrences(ics)
            // Chloé (Coco), born 1984-02-29.
            let coco = lines.filter { $0.hasPrefix("chloe-birthday@familytree ") }.map { $0.split(separator: " ")[1] }
            #expect(coco == (rule == .march1 ? ["2027-03-01", "2028-02-29"] : ["2027-02-28", "2028-02-29"]), "\(rule)")
            // Tom has no birth year and still recurs on July 14.
            #expect(lines.filter { $0.hasPrefix("tom-birthday@familytree ") }.map { $0.split(separator: " ")[1] } == ["2027-07-14", "2028-07-14"])
            // Peter and Emily's wedding day.
            #expect(lines.contains { $0.hasPrefix("peter+emily-anniversary@familytree 2027-07-01") })
        }
    }

    @Test func linesAreFoldedEscapedAndEndInCRLF() throws {
        let long = String(repeating: "Ödön ", count: 30)
        let graph = try FamilyGraph(members: [Member(id: "x", firstName: long, lastName: "Comma, Semi; Back\\slash", birthday: PartialDate("1990-05-06"))])
        let ics = ICSWriter(calendarName: "Family; test").write(FamilyEvents(graph: graph), today: day("2026-01-01"))
        #expect(ics.hasSuffix("END:VCALENDAR\r\n"))
        let physical = ics.components(separatedBy: "\r\n").dropLast()
        #expect(physical.allSatisfy { $0.utf8.count <= 75 })
        #expect(!ics.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let unfolded = ics.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("Comma\\, Semi\\; Back\\\\slash"))
        #expect(unfolded.contains("X-WR-CALNAME:Family\\; test"))
        #expect(unfolded.contains("UID:x-birthday@familytree"))
        #expect(try occurrences(ics).count == 2)
    }

    @Test func sameTreeSameFeed() throws {
        let graph = try CalendarFiles.exampleGraph()
        let events = FamilyEvents(graph: graph)
        #expect(ICSWriter().write(events, today: 20_000) == ICSWriter().write(events, today: 20_000))
    }
}

@Suite struct CalendarSVGTests {
    static let renderer = CalendarSVGRenderer(firstWeekday: .monday, today: day("2027-07-14"))

    /// The committed example calendars are what the renderer draws today, byte for byte.
    /// Re-record with `FAMILYTREE_RECORD=1 swift test --filter exampleCalendarsAreUpToDate`.
    @Test func exampleCalendarsAreUpToDate() throws {
        let events = FamilyEvents(graph: try CalendarFiles.exampleGraph())
        let files = [
            ("examples/calendar-2027-07.svg", Self.renderer.renderMonth(year: 2027, month: 7, events: events)),
            ("examples/calendar-2027.svg", Self.renderer.renderYear(2027, events: events)),
        ]
        for (path, svg) in files {
            let url = CalendarFiles.packageRoot.appendingPathComponent(path)
            if ProcessInfo.processInfo.environment["FAMILYTREE_RECORD"] == "1" { try svg.write(to: url, atomically: true, encoding: .utf8) }
            #expect(svg == (try String(contentsOf: url, encoding: .utf8)), "\(path) is stale: re-record with FAMILYTREE_RECORD=1")
        }
    }

    @Test func monthShowsNamesAgesPaddingAndToday() throws {
        let svg = Self.renderer.renderMonth(year: 2027, month: 7, events: FamilyEvents(graph: try CalendarFiles.exampleGraph()))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(svg.contains("<g class=\"day today has-events\" data-date=\"2027-07-14\">"))
        #expect(svg.contains(">Tom</text>"))
        #expect(svg.contains(">Peter &amp; Emily · 55 years</text>"))
        #expect(svg.contains("data-date=\"2027-06-30\"") && svg.contains("<g class=\"day padding has-events\" data-date=\"2027-06-30\">"))
        #expect(svg.contains(">Peter · 82</text>"))
        #expect(!svg.contains("<script"))
        // Each name says what it is: a dot for a birthday, two rings for a wedding anniversary, and a key.
        #expect(svg.contains("<circle class=\"sign birthday\"") && svg.contains("<circle class=\"sign anniversary\""))
        #expect(svg.components(separatedBy: "class=\"sign birthday\"").count - 1 == svg.components(separatedBy: "class=\"event birthday\"").count - 1 + 1)
        #expect(svg.contains(">birthday</text>") && svg.contains(">wedding anniversary</text>"))
        // Light unless asked: a calendar is printed or put in a page.
        #expect(!svg.contains("prefers-color-scheme"))
        let auto = CalendarSVGRenderer(today: nil, theme: .auto).renderMonth(year: 2027, month: 7, events: FamilyEvents(graph: try CalendarFiles.exampleGraph()))
        #expect(auto.contains("@media (prefers-color-scheme: dark) {\n  .background { fill: #14171f; }"))
        let dark = CalendarSVGRenderer(today: nil, theme: .dark).renderMonth(year: 2027, month: 7, events: FamilyEvents(graph: try CalendarFiles.exampleGraph()))
        #expect(!dark.contains("@media") && dark.contains(".background { fill: #14171f; }"))
    }

    @Test func namesAreEscapedAndLongDaysSayHowManyMore() throws {
        let members = (0..<7).map { Member(id: "m\($0)", firstName: "<b>Kid \($0)</b>", birthday: PartialDate("2001-03-03")) }
        let svg = CalendarSVGRenderer().renderMonth(year: 2026, month: 3, events: FamilyEvents(graph: try FamilyGraph(members: members)))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(!svg.contains("<b>"))
        #expect(svg.contains("+3 more"))
        let year = CalendarSVGRenderer().renderYear(2026, events: FamilyEvents(graph: try FamilyGraph(members: members)))
        #expect(XMLParser(data: Data(year.utf8)).parse())
        #expect(year.components(separatedBy: "class=\"mini\"").count - 1 == 12)
        #expect(year.contains("<g class=\"day has-events\" data-date=\"2026-03-03\">"))
    }
}
