/// How a February 29 birthday (or wedding day) is kept in common years.
public enum LeapDayRule: String, Sendable, Hashable, CaseIterable {
    /// Celebrated on February 28, still in February.
    case february28 = "feb28"
    /// Celebrated on March 1, the day after February 28 (also the legal rule in many countries).
    case march1 = "mar1"
}

/// A date that comes round every year: a birthday or a wedding anniversary (month and day).
public struct YearlyDate: Sendable, Hashable {
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// The yearly date of a date with a month and a day, exact or "about" (the year may be unknown
    /// or approximate); `nil` for bounded, ranged or year-only dates, which have no day to celebrate.
    public init?(_ date: PartialDate) {
        let calendarDate: CalendarDate
        switch date {
        case .exact(let value), .about(let value): calendarDate = value
        default: return nil
        }
        guard let month = calendarDate.month, let day = calendarDate.day else { return nil }
        self.month = month
        self.day = day
    }

    /// Whether this is 29 February, which most years lack.
    public var isLeapDay: Bool { month == 2 && day == 29 }

    /// The day (as a day number) on which it falls in `year`.
    public func dayNumber(inYear year: Int, leapDay: LeapDayRule) -> Int {
        if isLeapDay, !CalendarDate.isLeapYear(year) {
            return leapDay == .february28
                ? CalendarDate.dayNumber(year: year, month: 2, day: 28)
                : CalendarDate.dayNumber(year: year, month: 3, day: 1)
        }
        return CalendarDate.dayNumber(year: year, month: month, day: day)
    }

    /// The first day on or after `today` on which it falls.
    public func next(onOrAfter today: Int, leapDay: LeapDayRule) -> Int {
        let year = CalendarDate.date(fromDayNumber: today).year
        let thisYear = dayNumber(inYear: year, leapDay: leapDay)
        return thisYear >= today ? thisYear : dayNumber(inYear: year + 1, leapDay: leapDay)
    }
}
