/// A date as genealogy knows it: exact or partial, approximate, bounded, or a range.
///
/// In tree.json a partial date is a string:
/// `1850`, `1850-03`, `1850-03-02`, `--03-02` (month and day, no year), `about 1850`,
/// `before 1850`, `after 1850-06`, `between 1850 and 1860`.
public enum PartialDate: Sendable, Hashable, CustomStringConvertible {
    case exact(CalendarDate)
    case about(CalendarDate)
    case before(CalendarDate)
    case after(CalendarDate)
    case between(CalendarDate, CalendarDate)

    /// Parses the tree.json text form; `nil` when the text is not a date in any of the forms.
    ///
    /// Keywords are case-insensitive and GEDCOM's abbreviations are accepted
    /// (`abt`, `circa`, `c.`, `~`, `bef`, `aft`, `bet ... and ...`). A trailing ISO time
    /// (`1985-04-15T00:00:00Z`) is ignored.
    public init?(_ text: String) {
        // Most dates in a file are plain ISO dates: read them straight from the bytes.
        if let date = PartialDate.plainISODate(text.utf8) {
            self = .exact(date)
            return
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first?.lowercased() else { return nil }
        func date(_ parts: ArraySlice<String>) -> CalendarDate? {
            parts.count == 1 ? PartialDate.parseCalendarDate(parts.first!) : nil
        }
        switch first {
        case "about", "abt", "abt.", "circa", "ca.", "c.", "approx.", "est", "cal":
            guard let value = date(words.dropFirst()) else { return nil }
            self = .about(value)
        case "before", "bef", "bef.":
            guard let value = date(words.dropFirst()), value.year != nil else { return nil }
            self = .before(value)
        case "after", "aft", "aft.":
            guard let value = date(words.dropFirst()), value.year != nil else { return nil }
            self = .after(value)
        case "between", "bet", "bet.":
            guard words.count == 4, ["and", "&", "-"].contains(words[2].lowercased()),
                  let low = PartialDate.parseCalendarDate(words[1]), let high = PartialDate.parseCalendarDate(words[3]),
                  let lowDay = low.earliestDayNumber, let highDay = high.latestDayNumber, lowDay <= highDay
            else { return nil }
            self = .between(low, high)
        default:
            if first.hasPrefix("~"), words.count == 1, let value = PartialDate.parseCalendarDate(String(first.dropFirst())) {
                self = .about(value)
                return
            }
            guard let value = date(words[...]) else { return nil }
            self = .exact(value)
        }
    }

    /// An exact full date.
    public init?(year: Int, month: Int, day: Int) {
        guard let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        self = .exact(date)
    }

    /// The canonical tree.json text.
    public var description: String {
        switch self {
        case .exact(let date): "\(date)"
        case .about(let date): "about \(date)"
        case .before(let date): "before \(date)"
        case .after(let date): "after \(date)"
        case .between(let low, let high): "between \(low) and \(high)"
        }
    }

    /// The principal calendar date (the lower bound for a range).
    public var anchor: CalendarDate {
        switch self {
        case .exact(let date), .about(let date), .before(let date), .after(let date), .between(let date, _): date
        }
    }

    /// Whether the date is exact (possibly partial), not approximate or bounded.
    public var isExact: Bool {
        if case .exact = self { return true }
        return false
    }

    /// The key siblings are ordered by: the earliest day the date can be, then precision.
    ///
    /// `before X` sorts the day before X begins, `after X` the day after X ends, `between A and B`
    /// at A; among equal days a more precise date comes first. `nil` when the year is unknown:
    /// such a date cannot be placed among dated siblings.
    public var sortKey: SortKey? {
        switch self {
        case .exact(let date):
            date.earliestDayNumber.map { SortKey(day: $0, precision: date.precisionRank) }
        case .about(let date):
            date.earliestDayNumber.map { SortKey(day: $0, precision: 4 + date.precisionRank) }
        case .before(let date):
            date.earliestDayNumber.map { SortKey(day: $0 - 1, precision: 8) }
        case .after(let date):
            date.latestDayNumber.map { SortKey(day: $0 + 1, precision: 8) }
        case .between(let low, _):
            low.earliestDayNumber.map { SortKey(day: $0, precision: 9) }
        }
    }

    /// The earliest and latest day the date can be, as day numbers; `nil` without a year.
    ///
    /// `about X` is taken as X plus or minus five years; `before X` as up to a hundred years before.
    public var possibleDays: ClosedRange<Int>? {
        switch self {
        case .exact(let date):
            guard let low = date.earliestDayNumber, let high = date.latestDayNumber else { return nil }
            return low...high
        case .about(let date):
            guard let year = date.year else { return nil }
            return CalendarDate.dayNumber(year: year - 5, month: 1, day: 1)...CalendarDate.dayNumber(year: year + 5, month: 12, day: 31)
        case .before(let date):
            guard let high = date.earliestDayNumber, let year = date.year else { return nil }
            return CalendarDate.dayNumber(year: year - 100, month: 1, day: 1)...(high - 1)
        case .after(let date):
            guard let low = date.latestDayNumber, let year = date.year else { return nil }
            return (low + 1)...CalendarDate.dayNumber(year: year + 100, month: 12, day: 31)
        case .between(let low, let high):
            guard let lowDay = low.earliestDayNumber, let highDay = high.latestDayNumber else { return nil }
            return lowDay...highDay
        }
    }

    /// The year as shown in a life span: `1850`, `c. 1850`, `bef. 1850`, `aft. 1850`, `1850/1860`.
    public var yearText: String? {
        switch self {
        case .exact(let date): date.year.map { "\($0)" }
        case .about(let date): date.year.map { "c. \($0)" }
        case .before(let date): date.year.map { "bef. \($0)" }
        case .after(let date): date.year.map { "aft. \($0)" }
        case .between(let low, let high): low.year.flatMap { lowYear in high.year.map { "\(lowYear)/\($0)" } }
        }
    }

    /// The date for people: "Feb 2, 1963", "Feb 1963", "Feb 2" without a year; approximate and bounded
    /// dates by their years ("c. 1850", "bef. 1850", "1850/1860").
    public var displayText: String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard case .exact(let date) = self, let month = date.month else { return yearText ?? description }
        var text = months[month - 1]
        if let day = date.day { text += " \(day)" }
        if let year = date.year { text += date.day == nil ? " \(year)" : ", \(year)" }
        return text
    }

    /// Sort key for dates: a day number and a precision rank (lower is more precise).
    public struct SortKey: Sendable, Hashable, Comparable {
        /// The day number (days since 0001-01-01) of the date's earliest day.
        public var day: Int
        /// How precise the date is: 0 for a whole date, higher for a month, a year, an approximate date.
        public var precision: Int

        /// Earlier days first; on the same day, the more precise date first.
        public static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.day, lhs.precision) < (rhs.day, rhs.precision)
        }
    }

    /// Parses `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `--MM-DD` and `--MMDD`, ignoring a trailing `T...` time.
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` and nothing else, as a date; `nil` for anything else
    /// (which the general parser then reads).
    static func plainISODate(_ bytes: String.UTF8View) -> CalendarDate? {
        guard bytes.count == 4 || bytes.count == 7 || bytes.count == 10 else { return nil }
        var fields = [0, 0, 0]
        var field = 0
        for (offset, byte) in bytes.enumerated() {
            if offset == 4 || offset == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                field += 1
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            fields[field] = fields[field] * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return CalendarDate(year: fields[0], month: field >= 1 ? fields[1] : nil, day: field >= 2 ? fields[2] : nil)
    }

    static func parseCalendarDate(_ text: String) -> CalendarDate? {
        var text = Substring(text)
        if let timeStart = text.firstIndex(of: "T"), text.count > 10 { text = text[..<timeStart] }
        if text.hasPrefix("--") {
            let digits = text.dropFirst(2).filter { $0 != "-" }
            guard digits.count == 4, digits.allSatisfy(\.isASCIIDigit),
                  let month = Int(digits.prefix(2)), let day = Int(digits.suffix(2)) else { return nil }
            return CalendarDate(month: month, day: day)
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              parts.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
        let numbers = parts.map { Int($0)! }
        return CalendarDate(year: numbers[0], month: numbers.count > 1 ? numbers[1] : nil, day: numbers.count > 2 ? numbers[2] : nil)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
