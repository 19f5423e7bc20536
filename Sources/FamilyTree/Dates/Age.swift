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
    /// birthday is reached in common years on the day `leapDay` says (March 1 by default).
    /// An "about" date counts from the date given, so "about 1981-08-15" is "~45" in 2026.
    public init?(birthday: PartialDate, on day: Int, leapDay: LeapDayRule = .march1) {
        if case .about(let anchor) = birthday {
            guard let age = Age(birthday: .exact(anchor), on: day, leapDay: leapDay) else { return nil }
            years = age.years
            isApproximate = true
            return
        }
        guard let possible = birthday.possibleDays, possible.lowerBound <= day else { return nil }
        let oldest = Age.wholeYears(from: possible.lowerBound, to: day, leapDay: leapDay)
        let youngest = Age.wholeYears(from: min(possible.upperBound, day), to: day, leapDay: leapDay)
        years = youngest
        isApproximate = oldest != youngest || !birthday.isExact
    }

    /// The age at death; approximate unless both dates are exact days; nil when unknown.
    ///
    /// A death known only as a range counts from its latest possible day, so that "before 1976"
    /// still gives an age (the oldest the person can have become).
    public init?(birthday: PartialDate, death: PartialDate, leapDay: LeapDayRule = .march1) {
        guard let days = death.possibleDays, let age = Age(birthday: birthday, on: days.upperBound, leapDay: leapDay) else { return nil }
        years = age.years
        isApproximate = age.isApproximate || days.lowerBound != days.upperBound
    }

    /// Whole years from one day to another, counted on the yearly return of the first.
    public static func wholeYears(from start: Int, to day: Int, leapDay: LeapDayRule = .march1) -> Int {
        let birth = CalendarDate.date(fromDayNumber: start)
        let now = CalendarDate.date(fromDayNumber: day)
        let yearly = YearlyDate(PartialDate(year: birth.year, month: birth.month, day: birth.day)!)!
        let years = now.year - birth.year
        return day >= yearly.dayNumber(inYear: now.year, leapDay: leapDay) ? years : years - 1
    }
}
