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

/// The time until a day, in the words seed 000 used: "today", "1 day", "10 days" while under a
/// month, then whole months: "1 month", "4 months", "11 months". A month is complete on the same
/// day of the month, or on the month's last day when it is shorter (January 31 to February 28).
public struct Countdown: Sendable, Hashable, CustomStringConvertible {
    /// Days until the day (0 today).
    public let days: Int
    /// Whole calendar months until the day (0 while under a month).
    public let months: Int

    /// The countdown from `today` to `day` (both day numbers, `day` not before `today`).
    public init(from today: Int, to day: Int) {
        days = day - today
        let start = CalendarDate.date(fromDayNumber: today)
        let end = CalendarDate.date(fromDayNumber: day)
        var months = (end.year - start.year) * 12 + (end.month - start.month)
        // A month is complete on the same day of the month (or the month's last day, if shorter).
        let anchorDay = min(start.day, CalendarDate.daysIn(month: end.month, year: end.year))
        if end.day < anchorDay { months -= 1 }
        self.months = max(0, months)
    }

    public var description: String {
        if days == 0 { return "today" }
        if months == 0 { return days == 1 ? "1 day" : "\(days) days" }
        return months == 1 ? "1 month" : "\(months) months"
    }
}
