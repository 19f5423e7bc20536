import ArgumentParser
import FamilyTree
import FamilyTreeCalendar
import FamilyTreeRender
import Foundation

extension Weekday: ExpressibleByArgument {
    /// A day's name ("sunday", "sun") or its number as cron and C count them: 0 (or 7) Sunday, 1 Monday, ... 6 Saturday.
    public init?(argument: String) {
        if let number = Int(argument), (0...7).contains(number) {
            self = number == 0 || number == 7 ? .sunday : Weekday(rawValue: number - 1)!
            return
        }
        guard let day = Weekday.allCases.first(where: { "\($0)" == argument.lowercased() || $0.shortName.lowercased() == argument.lowercased() }) else { return nil }
        self = day
    }

    public static var allValueStrings: [String] { allCases.map { "\($0)" } }
}

struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Draw a month (or year) of birthdays and anniversaries, or write an .ics feed.",
        discussion: """
        The month calendar shows whole weeks, days of the months around dimmed, today marked, and on each \
        day the birthdays (with the age turned) and wedding anniversaries (with the years married) of the \
        living. --year draws twelve months on one page. --ics writes an iCalendar file with one yearly \
        all-day event per birthday and anniversary, with stable UIDs so a newer file updates rather than \
        duplicates.

        Examples:
          familytree calendar tree.json --month 2026-12 -o december.svg
          familytree calendar tree.json --year 2027 --first-weekday sunday -o 2027.svg
          familytree calendar tree.json --ics -o family.ics
        """
    )

    @Argument(help: "The tree file, or - for standard input.")
    var tree: String

    @OptionGroup var reading: ReadingOptions

    @Option(help: "The month to draw: YYYY-MM, or this, next or last (default: this month).")
    var month: String?

    @Option(help: "Draw twelve months of this year on one page.")
    var year: Int?

    @Flag(help: "Write an iCalendar (.ics) file instead of SVG.")
    var ics = false

    @Option(name: .shortAndLong, help: "The output file, or - for standard output.")
    var output: String = "-"

    @Option(help: "The first day of the week: a name, or 0-6 with 0 Sunday (default: from the locale, else Monday).")
    var firstWeekday: Weekday?

    @Option(help: "The day marked as today, YYYY-MM-DD (default: today).")
    var today: String?

    @Flag(help: "Also show the birthdays of the deceased and anniversaries of widowed couples.")
    var includeDeceased = false

    @Option(help: "Colours: light (the default, for printing or a page), dark, or auto (follows the reader's system).")
    var theme: SVGRenderer.Theme = .light

    @Option(help: "February 29 in common years: mar1 or feb28.")
    var leapDay: LeapDayRule = .march1

    @OptionGroup var privacy: PrivacyOptions

    func validate() throws {
        if [month != nil, year != nil, ics].filter({ $0 }).count > 1 { throw ValidationError("choose one of --month, --year and --ics") }
        if let month, CalendarCommand.yearMonth(month) == nil, !Self.relativeMonths.keys.contains(month.lowercased()) {
            throw ValidationError("--month takes YYYY-MM (for example 2026-12), this, next or last")
        }
        if let year, !(1...9999).contains(year) { throw ValidationError("--year takes a year from 1 to 9999") }
    }

    /// Months named from today: how many months on.
    static let relativeMonths = ["this": 0, "next": 1, "last": -1, "previous": -1]

    static func yearMonth(_ text: String) -> (year: Int, month: Int)? {
        guard case .exact(let date)? = PartialDate(text), let year = date.year, let month = date.month, date.day == nil else { return nil }
        return (year, month)
    }

    func run() throws {
        let day = try Today.dayNumber(today)
        // With --private living the living have no dates left: only the dead's days are drawn.
        let graph = privacy.apply(to: try TreeFiles.loadGraph(tree, surnameCase: reading.surnameCase), today: day).graph
        let events = FamilyEvents(graph: graph, leapDay: leapDay, includeDeceased: includeDeceased)
        if ics {
            try TreeFiles.write(ICSWriter().write(events, today: day), to: output)
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let weekday = firstWeekday ?? Weekday.firstOfWeek(locale: environment["LC_ALL"] ?? environment["LC_TIME"] ?? environment["LANG"])
        let renderer = CalendarSVGRenderer(firstWeekday: weekday, today: day, theme: theme)
        if let year {
            try TreeFiles.write(renderer.renderYear(year, events: events), to: output)
        } else {
            let shown = month.flatMap(CalendarCommand.yearMonth) ?? {
                let date = CalendarDate.date(fromDayNumber: day)
                let months = date.year * 12 + date.month - 1 + (month.flatMap { Self.relativeMonths[$0.lowercased()] } ?? 0)
                return (months / 12, months % 12 + 1)
            }()
            try TreeFiles.write(renderer.renderMonth(year: shown.year, month: shown.month, events: events), to: output)
        }
    }
}
