import FamilyTree

/// Reads GEDCOM dates (5.5.1 and 7.0) into partial dates.
///
/// Exact, partial, `ABT`/`CAL`/`EST`, `BEF`/`AFT`, `BET ... AND ...`, `FROM ... TO ...` (a range),
/// `FROM x` (after), `TO x` (before), `INT date (phrase)` (about), dual years (`1731/32`: the later,
/// new-style year), and the Gregorian calendar escape. Julian dates are read as about the same day
/// (the calendars differ by 10 to 13 days in the years that matter). Hebrew and French Republican
/// dates, B.C. dates and free text have no partial date: `nil`, and the caller keeps the text.
enum GEDCOMDate {
    static let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    /// Month names some programs write in full ("29 December 1812").
    static let fullMonths = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"]

    static func month(_ word: String) -> Int? {
        (months.firstIndex(of: word) ?? fullMonths.firstIndex(of: word)).map { $0 + 1 }
    }

    static func parse(_ text: String) -> PartialDate? {
        var words = text.uppercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        // An INT date's phrase, in parentheses, is dropped.
        if let open = words.firstIndex(where: { $0.hasPrefix("(") }) { words = Array(words[..<open]) }
        guard let first = words.first else { return nil }
        switch first {
        case "ABT", "CAL", "EST", "INT":
            return date(words.dropFirst()).map { .about($0.date) }
        case "BEF", "TO":
            return date(words.dropFirst()).map { $0.approximate ? .about($0.date) : .before($0.date) }
        case "AFT":
            return date(words.dropFirst()).map { .after($0.date) }
        case "FROM":
            if let to = words.firstIndex(of: "TO") {
                guard let low = date(words[1..<to]), let high = date(words[(to + 1)...]) else { return nil }
                return range(low.date, high.date)
            }
            return date(words.dropFirst()).map { .after($0.date) }
        case "BET":
            guard let and = words.firstIndex(of: "AND"), let low = date(words[1..<and]), let high = date(words[(and + 1)...]) else { return nil }
            return range(low.date, high.date)
        default:
            return date(words[...]).map { $0.approximate ? .about($0.date) : .exact($0.date) }
        }
    }

    private static func range(_ low: CalendarDate, _ high: CalendarDate) -> PartialDate? {
        guard let lowDay = low.earliestDayNumber, let highDay = high.latestDayNumber, lowDay <= highDay else { return nil }
        return .between(low, high)
    }

    /// `[calendar] [day] [month] year[/yy]`; approximate when the calendar is Julian.
    private static func date(_ words: ArraySlice<String>) -> (date: CalendarDate, approximate: Bool)? {
        var words = words
        var approximate = false
        if let calendar = words.first {
            switch calendar {
            case "@#DGREGORIAN@", "GREGORIAN": words = words.dropFirst()
            case "@#DJULIAN@", "JULIAN": words = words.dropFirst(); approximate = true
            case _ where calendar.hasPrefix("@#D") || calendar == "HEBREW" || calendar == "FRENCH_R": return nil
            default: break
            }
        }
        guard let yearWord = words.last, !words.isEmpty, words.count <= 3 else { return nil }
        // A day and month without a year ("10 JAN"), as some programs write birthdays.
        if words.count == 2, let monthNumber = month(yearWord), let day = Int(words[words.startIndex]),
           let date = CalendarDate(month: monthNumber, day: day) {
            return (date, approximate)
        }
        guard let year = self.year(yearWord) else { return nil }
        var month: Int?
        var day: Int?
        if words.count >= 2 {
            guard let number = self.month(words[words.endIndex - 2]) else { return nil }
            month = number
        }
        if words.count == 3 {
            guard let value = Int(words[words.startIndex]) else { return nil }
            day = value
        }
        guard let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        return (date, approximate)
    }

    /// `1850`, or a dual year `1731/32`, `1815/1816` or `1527-1528` (the later year).
    private static func year(_ word: String) -> Int? {
        var parts = word.split(separator: "/")
        if parts.count == 1 {
            // A hyphen joins dual years only when the second is the next year.
            let hyphenated = word.split(separator: "-")
            if hyphenated.count == 2, let first = Int(hyphenated[0]), let second = Int(hyphenated[1]), second == first + 1 { parts = hyphenated }
        }
        guard let first = parts.first, first.allSatisfy(\.isNumber), let base = Int(first), (1...9999).contains(base) else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? base : nil }
        let second = parts[1]
        guard second.allSatisfy(\.isNumber), !second.isEmpty, let tail = Int(second) else { return nil }
        if second.count >= 4 { return tail }
        let modulus = second.count == 1 ? 10 : 100
        let candidate = base - base % modulus + tail
        return candidate > base ? candidate : candidate + modulus
    }
}
