/// A Gregorian calendar date that may lack its year, its day, or both its month and day.
///
/// Phones store many birthdays as a month and day without a year, so `year` is optional
/// on its own: `CalendarDate(month: 2, day: 29)` is a valid birthday.
public struct CalendarDate: Sendable, Hashable, CustomStringConvertible {
    // Packed into 8 bytes: a tree of a million members carries two dates each.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8
    private static let noYear = Int32.min

    /// The year, when known.
    public var year: Int? { storedYear == CalendarDate.noYear ? nil : Int(storedYear) }
    /// The month (1–12), when known.
    public var month: Int? { storedMonth == 0 ? nil : Int(storedMonth) }
    /// The day of the month, when known.
    public var day: Int? { storedDay == 0 ? nil : Int(storedDay) }

    /// Creates a date; returns `nil` when the parts do not name a real (partial) day.
    public init?(year: Int? = nil, month: Int? = nil, day: Int? = nil) {
        if let year, !(1...9999).contains(year) { return nil }
        if year == nil && (month == nil || day == nil) { return nil }
        if day != nil && month == nil { return nil }
        if let month, !(1...12).contains(month) { return nil }
        if let month, let day {
            // Without a year, February 29 is a valid (leap-day) birthday.
            let limit = year.map { CalendarDate.daysIn(month: month, year: $0) } ?? CalendarDate.daysIn(month: month, year: 2000)
            guard (1...limit).contains(day) else { return nil }
        }
        storedYear = year.map(Int32.init) ?? CalendarDate.noYear
        storedMonth = month.map(UInt8.init) ?? 0
        storedDay = day.map(UInt8.init) ?? 0
    }

    /// Whether year, month and day are all known.
    public var isComplete: Bool { year != nil && month != nil && day != nil }

    /// ISO 8601 text: `1850`, `1850-03`, `1850-03-02`, or `--03-02` without a year.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = year.map { pad($0, 4) } ?? "-"
        if let month { text += "-" + pad(month, 2) }
        if let day { text += "-" + pad(day, 2) }
        return text
    }

    /// The first day this date can be, as a day number; `nil` without a year.
    public var earliestDayNumber: Int? {
        guard let year else { return nil }
        return CalendarDate.dayNumber(year: year, month: month ?? 1, day: day ?? 1)
    }

    /// The last day this date can be, as a day number; `nil` without a year.
    public var latestDayNumber: Int? {
        guard let year else { return nil }
        let lastMonth = month ?? 12
        return CalendarDate.dayNumber(year: year, month: lastMonth, day: day ?? CalendarDate.daysIn(month: lastMonth, year: year))
    }

    /// 0 for a full date, 1 for year and month, 2 for a year alone, 3 without a year.
    var precisionRank: Int {
        if year == nil { return 3 }
        if month == nil { return 2 }
        return day == nil ? 1 : 0
    }

    // MARK: Calendar arithmetic

    /// Whether `year` is a leap year in the proleptic Gregorian calendar.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before), for a valid Gregorian date.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The full date of a day number (the inverse of `dayNumber`).
    public static func date(fromDayNumber number: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = number + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPosition = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPosition + 2) / 5 + 1
        let month = monthPosition < 10 ? monthPosition + 3 : monthPosition - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
