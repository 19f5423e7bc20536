import ArgumentParser
import FamilyTree
import FamilyTreeCalendar
import Foundation

extension BirthdaySort: ExpressibleByArgument {}
extension LeapDayRule: ExpressibleByArgument {}

/// Output formats of `birthdays`.
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

struct BirthdaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "birthdays",
        abstract: "List birthdays: age, birthday and the time until the next one.",
        discussion: """
        Lists the members whose birthday has a month and a day (a missing year is fine: no age, still a \
        countdown). Ages are whole years ("~45" when the year is approximate); the deceased are left out \
        unless --include-deceased, and then show their age at death ("†80"); someone born more than 110 \
        years ago with no death recorded counts as deceased ("†"). The countdown reads \
        "today", "1 day", "10 days" while under a month, then "4 months"; at 30 days or less it is red \
        when the output is a terminal. A February 29 birthday is kept on March 1 in common years, or on \
        February 28 with --leap-day feb28.

        Examples:
          familytree birthdays tree.json
          familytree birthdays tree.json --sort next --within 30d
          familytree birthdays tree.json --today 2026-12-01 --format csv > birthdays.csv
        """
    )

    @Argument(help: "The tree file, or - for standard input.")
    var tree: String

    @OptionGroup var reading: ReadingOptions

    @Option(help: "name (A-Z), age (oldest first), birthday (calendar order) or next (soonest first).")
    var sort: BirthdaySort = .next

    @Option(help: "Only birthdays this soon: 30d, 2w or a number of days.")
    var within: String?

    @Option(help: "Compute as of this day, YYYY-MM-DD (default: today).")
    var today: String?

    @Option(help: "table, json or csv.")
    var format: ListFormat = .table

    @Flag(help: "Also list the deceased, with their age at death.")
    var includeDeceased = false

    @Option(help: "February 29 birthdays in common years: mar1 or feb28.")
    var leapDay: LeapDayRule = .march1

    @Flag(help: "Only birthdays with no year, to complete them (familytree edit MEMBER --birthday YYYY-MM-DD).")
    var missingYear = false

    @OptionGroup var privacy: PrivacyOptions

    func validate() throws {
        if let within, BirthdaysCommand.days(within) == nil {
            throw ValidationError("--within takes a number of days (30 or 30d) or weeks (2w)")
        }
    }

    /// "30d", "2w" or "30" as days.
    static func days(_ text: String) -> Int? {
        let lowered = text.lowercased()
        if lowered.hasSuffix("w") { return Int(lowered.dropLast()).map { $0 * 7 }.flatMap { $0 >= 0 ? $0 : nil } }
        let number = lowered.hasSuffix("d") ? String(lowered.dropLast()) : lowered
        return Int(number).flatMap { $0 >= 0 ? $0 : nil }
    }

    func run() throws {
        let day = try Today.dayNumber(today)
        // With --private living the living have no dates left: only the dead can be listed.
        let graph = privacy.apply(to: try TreeFiles.loadGraph(tree, surnameCase: reading.surnameCase), today: day).graph
        var list = BirthdayList(graph: graph, today: day, leapDay: leapDay, includeDeceased: includeDeceased).sorted(by: sort)
        if let within, let days = BirthdaysCommand.days(within) { list = list.within(days: days) }
        if missingYear { list = list.missingYear }
        switch format {
        case .table: Console.output(BirthdayListFormat.table(list, highlight: isatty(STDOUT_FILENO) == 1))
        case .json: Console.output(BirthdayListFormat.json(list))
        case .csv: Console.output(BirthdayListFormat.csv(list))
        }
    }
}
