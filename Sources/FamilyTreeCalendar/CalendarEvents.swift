import FamilyTree

/// Something to celebrate on a day: a birthday or a wedding anniversary.
public struct CalendarEvent: Sendable, Hashable {
    /// What a calendar event marks.
    public enum Kind: String, Sendable, Hashable {
        case birthday, anniversary
    }

    /// What the event marks.
    public let kind: Kind
    /// The day of the month it falls on.
    public let dayNumber: Int
    /// Who: the member's short name, or "Karl & Siobhán".
    public let names: String
    /// The age turned, or the years married; nil when the year is unknown.
    public let years: Int?
    /// The member id, or the union id, the event comes from.
    public let sourceID: String

    /// "Anna · 84", "Karl & Siobhán · 86 years", "Tom".
    public var label: String {
        guard let years else { return names }
        return kind == .birthday ? "\(names) · \(years)" : "\(names) · \(years) year\(years == 1 ? "" : "s")"
    }
}

/// Birthdays and anniversaries of a family, by day.
public struct FamilyEvents: Sendable {
    /// A yearly date and what it celebrates.
    public struct Source: Sendable, Hashable {
        /// What the event marks.
        public let kind: CalendarEvent.Kind
        /// The day it comes back each year.
        public let yearly: YearlyDate
        /// The original date (its year, when known, gives the age or the years married).
        public let date: PartialDate
        /// The short names shown in a calendar cell.
        public let names: String
        /// The full names, for the event's description.
        public let fullNames: String
        /// A stable id of the member or union the event comes from (the .ics UID is made from it).
        public let sourceID: String
        /// The last year it is celebrated: up to a living person's `LivingRule.maximumAge`, a
        /// couple's while both may be living; `nil` for every year.
        public var lastYear: Int? = nil
    }

    /// The birthdays and weddings the events come from.
    public let sources: [Source]
    /// Where 29 February falls in a year without it.
    public let leapDay: LeapDayRule

    /// Birthdays of the living (of everyone with `includeDeceased`) and anniversaries of unions
    /// with an exact marriage day that are not divorced and whose partners are living. The
    /// living are those with no death recorded, and only while they may be (a birthday up to
    /// `living.maximumAge`): no one turns 141.
    public init(graph: FamilyGraph, leapDay: LeapDayRule = .march1, includeDeceased: Bool = false, living: LivingRule = LivingRule()) {
        var sources: [Source] = []
        for member in graph.members {
            guard let birthday = member.birthday, let yearly = YearlyDate(birthday) else { continue }
            let isDead = member.deathDate != nil || member.deathPhrase != nil
            guard includeDeceased || !isDead else { continue }
            var source = Source(kind: .birthday, yearly: yearly, date: birthday, names: member.shortName, fullNames: member.fullName, sourceID: member.id)
            if !includeDeceased { source.lastYear = living.lastYearLiving(member) }
            sources.append(source)
        }
        for union in graph.unions where union.divorce == nil && union.partners.count == 2 {
            guard let marriage = union.marriage, let yearly = YearlyDate(marriage) else { continue }
            let partners = union.partners.compactMap(graph.member)
            guard includeDeceased || partners.allSatisfy({ $0.deathDate == nil && $0.deathPhrase == nil }) else { continue }
            var source = Source(kind: .anniversary, yearly: yearly, date: marriage, names: partners.map(\.shortName).joined(separator: " & "),
                                fullNames: partners.map(\.fullName).joined(separator: " & "), sourceID: union.id)
            if !includeDeceased { source.lastYear = partners.compactMap(living.lastYearLiving).min() }
            sources.append(source)
        }
        self.sources = sources
        self.leapDay = leapDay
    }

    /// The events from `first` to `last` (day numbers, inclusive), by day, in source order within a day.
    public func events(from first: Int, through last: Int) -> [Int: [CalendarEvent]] {
        var byDay: [Int: [CalendarEvent]] = [:]
        let firstYear = CalendarDate.date(fromDayNumber: first).year
        let lastYear = CalendarDate.date(fromDayNumber: last).year
        for source in sources {
            let throughYear = min(lastYear, source.lastYear ?? lastYear)
            guard throughYear >= firstYear else { continue }
            for year in firstYear...throughYear {
                let day = source.yearly.dayNumber(inYear: year, leapDay: leapDay)
                guard day >= first, day <= last else { continue }
                var years: Int?
                if let startYear = source.date.anchor.year, year >= startYear {
                    years = year - startYear
                }
                // Not yet born or married that year: nothing to celebrate.
                if let years, years == 0, source.kind == .anniversary { continue }
                if source.date.anchor.year.map({ $0 > year }) == true { continue }
                byDay[day, default: []].append(CalendarEvent(kind: source.kind, dayNumber: day, names: source.names, years: years, sourceID: source.sourceID))
            }
        }
        return byDay
    }
}
