import FamilyTree

/// The time until a day, in words: "today", "1 day", "10 days" while under a
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
