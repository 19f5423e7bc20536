import ArgumentParser
import FamilyTree
import Foundation

/// `--complete-years` and `--year NAME=YYYY`: birthdays without a year (a phone keeps many),
/// completed while contacts come in, asked on the terminal or given by a script.
struct YearCompletionOptions: ParsableArguments {
    @Flag(help: "Ask on the terminal for the year of each birthday that has none (Enter skips one).")
    var completeYears = false

    @Option(name: .customLong("year"), help: ArgumentHelp(
        "A year for a birthday that has none, as NAME=YYYY (repeat for more); for scripts.", valueName: "NAME=YYYY"
    ))
    var years: [String] = []

    var isRequested: Bool { completeYears || !years.isEmpty }

    /// `tree` with the years given or answered; what was completed, as "name: date" lines.
    /// `today` bounds a year (nobody is born after it).
    func complete(_ tree: TreeFile, today: Int) throws -> (tree: TreeFile, completed: [String]) {
        guard isRequested else { return (tree, []) }
        let graph = tree.graph
        let missing = Set(YearCompletion.membersMissingAYear(in: graph))
        var chosen: [Int: Int] = [:]
        for assignment in years {
            guard let equals = assignment.lastIndex(of: "=") else {
                throw ValidationError("--year takes NAME=YYYY, for example --year \"Amara Okafor=1990\"; \"\(assignment)\" has no =")
            }
            let name = String(assignment[..<equals]), yearText = String(assignment[assignment.index(after: equals)...])
            let index = try graph.resolveMember(name)
            guard missing.contains(index) else {
                throw ValidationError("--year \(assignment): \(graph.members[index].fullName)'s birthday is not one without a year")
            }
            let birthday = YearCompletion.monthAndDay(of: graph.members[index])!
            switch YearCompletion.year(yearText, for: birthday, today: today) {
            case .success(let year): chosen[index] = year
            case .failure(let problem): throw ValidationError("--year \(assignment): \(problem.message)")
            }
        }
        if completeYears {
            guard isatty(STDIN_FILENO) != 0 else {
                throw ValidationError("--complete-years asks on a terminal, and standard input is not one; give the years with --year NAME=YYYY")
            }
            for index in YearCompletion.membersMissingAYear(in: graph) where chosen[index] == nil {
                if let year = ask(graph.members[index], today: today) { chosen[index] = year }
            }
        }
        var edits: [TreeEdit] = []
        var completed: [String] = []
        for index in chosen.keys.sorted() {
            let member = graph.members[index]
            let (month, day) = YearCompletion.monthAndDay(of: member)!
            let date = PartialDate(year: chosen[index]!, month: month, day: day)!
            edits.append(.editMember(member.id, MemberChanges(birthday: .set(date))))
            completed.append("\(member.fullName): \(date)")
        }
        var updated = tree
        try updated.apply(edits)
        return (updated, completed)
    }

    /// Asks for one member's year until the answer is a year or empty (skip); `nil` at end of input.
    private func ask(_ member: Member, today: Int) -> Int? {
        let birthday = YearCompletion.monthAndDay(of: member)!
        let shown = SafeText.terminalSafe(member.fullName, keepingLineBreaks: false)
        while let answer = Prompt.line("\(shown), born \(YearCompletion.monthName(birthday.month)) \(birthday.day): the year? (Enter skips) ") {
            let text = answer.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return nil }
            switch YearCompletion.year(text, for: birthday, today: today) {
            case .success(let year): return year
            case .failure(let problem): Console.error(problem.message)
            }
        }
        return nil
    }
}

/// The rules for completing a birthday's year, apart from where the year comes from.
enum YearCompletion {
    struct Problem: Error {
        let message: String
    }

    /// Members (indices, in file order) whose birthday has a month and a day but no year.
    static func membersMissingAYear(in graph: FamilyGraph) -> [Int] {
        graph.members.indices.filter { !graph.members[$0].isRemoved && monthAndDay(of: graph.members[$0]) != nil }
    }

    /// The month and day of a birthday without a year (an exact one: `--12-02`).
    static func monthAndDay(of member: Member) -> (month: Int, day: Int)? {
        guard case .exact(let date)? = member.birthday, date.year == nil, let month = date.month, let day = date.day else { return nil }
        return (month, day)
    }

    /// `text` as a year for a birthday on `birthday`: four digits, a day that exists that year
    /// (29 February only in a leap year), not after `today`.
    static func year(_ text: String, for birthday: (month: Int, day: Int), today: Int) -> Result<Int, Problem> {
        guard text.count == 4, text.allSatisfy(\.isASCII), let year = Int(text), year >= 1000 else {
            return .failure(Problem(message: "\"\(SafeText.terminalSafe(text, keepingLineBreaks: false))\" is not a year: four digits, like 1963"))
        }
        guard let day = CalendarDate(year: year, month: birthday.month, day: birthday.day)?.earliestDayNumber else {
            return .failure(Problem(message: "\(monthName(birthday.month)) \(birthday.day), \(year) does not exist"))
        }
        guard day <= today else {
            return .failure(Problem(message: "\(monthName(birthday.month)) \(birthday.day), \(year) is in the future"))
        }
        return .success(year)
    }

    static func monthName(_ month: Int) -> String {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][max(0, min(11, month - 1))]
    }
}
