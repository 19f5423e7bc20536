/// A person's age in whole years, exact or approximate.
public struct Age: Sendable, Hashable, CustomStringConvertible {
    /// The youngest the person can be: never overstates the age.
    public var years: Int
    /// Whether the birthday (or the day of reckoning) is only partly known.
    public var isApproximate: Bool

    /// `45`, or `~45` when approximate.
    public var description: String { isApproximate ? "~\(years)" : "\(years)" }

    /// The age on `day` of someone born on `birthday`; `nil` when the birth year is unknown
    /// or the day is before the birth.
    ///
    /// Years are counted by calendar date: the age goes up on the birthday itself; a February 29
    /// birthday counts as reached on March 1 in common years.
    public init?(birthday: PartialDate, on day: Int) {
        guard let possible = birthday.possibleDays, possible.lowerBound <= day else { return nil }
        let oldest = Age.wholeYears(from: possible.lowerBound, to: day)
        let youngest = Age.wholeYears(from: min(possible.upperBound, day), to: day)
        years = youngest
        isApproximate = oldest != youngest || !birthday.isExact
    }

    static func wholeYears(from birthDay: Int, to day: Int) -> Int {
        let birth = CalendarDate.date(fromDayNumber: birthDay)
        let now = CalendarDate.date(fromDayNumber: day)
        var years = now.year - birth.year
        if (now.month, now.day) < (birth.month, birth.day) { years -= 1 }
        return years
    }
}
