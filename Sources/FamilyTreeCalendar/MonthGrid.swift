import FamilyTree

/// Days of the week, Monday first as ISO 8601 numbers them.
public enum Weekday: Int, Sendable, Hashable, CaseIterable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The weekday of a day number (1970-01-01 was a Thursday).
    public init(dayNumber: Int) {
        self = Weekday(rawValue: ((dayNumber + 3) % 7 + 7) % 7)!
    }

    /// "Mon", "Tue", ...
    public var shortName: String { ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][rawValue] }
    /// "M", "T", ...
    public var initial: String { ["M", "T", "W", "T", "F", "S", "S"][rawValue] }

    /// The first day of the week where `locale` (a POSIX locale such as `en_US.UTF-8`) lives:
    /// Sunday in the Americas, Japan, Israel and a few more; Monday elsewhere and by default.
    public static func firstOfWeek(locale: String?) -> Weekday {
        guard let locale, let separator = locale.firstIndex(of: "_") else { return .monday }
        let region = locale[locale.index(after: separator)...].prefix(2).uppercased()
        let sundayFirst: Set<String> = ["US", "CA", "MX", "BR", "JP", "IL", "KR", "PH", "TW", "HK", "AU", "ZA", "IN", "SA", "PE", "CO", "AR", "VE"]
        return sundayFirst.contains(region) ? .sunday : .monday
    }
}

/// One month as the grid of a wall calendar: whole weeks, padded with days of the months around it.
public struct MonthGrid: Sendable, Hashable {
    /// One day of the month in the grid.
    public struct Day: Sendable, Hashable {
        /// The day number (see `CalendarDate.dayNumber`).
        public let dayNumber: Int
        /// The day of the month, from 1.
        public let dayOfMonth: Int
        /// Whether the day belongs to the previous or next month (drawn dimmed).
        public let isPadding: Bool
    }

    /// The year shown.
    public let year: Int
    /// The month shown, 1 to 12.
    public let month: Int
    /// The weekday each row starts on.
    public let firstWeekday: Weekday
    /// Weeks of seven days, first weekday first.
    public let weeks: [[Day]]

    /// The grid of `month` in `year`, rows starting on `firstWeekday`.
    public init(year: Int, month: Int, firstWeekday: Weekday) {
        self.year = year
        self.month = month
        self.firstWeekday = firstWeekday
        let first = CalendarDate.dayNumber(year: year, month: month, day: 1)
        let last = first + CalendarDate.daysIn(month: month, year: year) - 1
        let lead = (Weekday(dayNumber: first).rawValue - firstWeekday.rawValue + 7) % 7
        let trail = (firstWeekday.rawValue + 6 - Weekday(dayNumber: last).rawValue + 7) % 7
        var weeks: [[Day]] = []
        var week: [Day] = []
        for day in (first - lead)...(last + trail) {
            week.append(Day(dayNumber: day, dayOfMonth: CalendarDate.date(fromDayNumber: day).day, isPadding: day < first || day > last))
            if week.count == 7 {
                weeks.append(week)
                week = []
            }
        }
        self.weeks = weeks
    }

    /// The weekdays in column order.
    public var weekdays: [Weekday] { (0..<7).map { Weekday(rawValue: (firstWeekday.rawValue + $0) % 7)! } }

    /// "December 2026".
    public var title: String { "\(MonthGrid.monthNames[month - 1]) \(year)" }

    /// The months' English names, January first.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
}
