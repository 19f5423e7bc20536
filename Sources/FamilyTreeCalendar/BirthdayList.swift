import FamilyTree

/// One member's birthday as the `birthdays` command lists it.
public struct BirthdayEntry: Sendable, Hashable {
    /// The member's position in `FamilyGraph.members`.
    public let member: Int
    /// Whose birthday it is.
    public let memberID: Member.ID
    /// The nickname if there is one, otherwise the full name.
    public let name: String
    /// The birthday as recorded (possibly without a year).
    public let birthday: PartialDate
    /// The day it comes back each year.
    public let yearly: YearlyDate
    /// The next birthday on or after today, as a day number.
    public let nextBirthday: Int
    /// Days until the next one, and the age then when the year is known.
    public let countdown: Countdown
    /// The age today, or the age at death for the deceased; nil when the birth year is unknown.
    public let age: Age?
    /// The age reached on the next birthday (living members with a known birth year).
    public let turning: Age?
    /// Whether the person has died (the day is a remembrance).
    public let isDeceased: Bool
}

/// The orders a birthday list can be in.
public enum BirthdaySort: String, Sendable, CaseIterable {
    /// Name A-Z.
    case name
    /// Oldest first.
    case age
    /// Calendar order, January 1 first.
    case birthday
    /// Soonest next birthday first.
    case next
}

/// Everybody's birthdays on a given day: ages, countdowns and orders.
public struct BirthdayList: Sendable {
    /// The birthdays, soonest first.
    public let entries: [BirthdayEntry]

    /// The members of `graph` whose birthday has a month and a day, as of `today` (a day number:
    /// library code never reads the clock). The deceased are left out unless `includeDeceased`:
    /// those with a death recorded and those born more than `living.maximumAge` years ago.
    public init(graph: FamilyGraph, today: Int, leapDay: LeapDayRule = .march1, includeDeceased: Bool = false, living: LivingRule = LivingRule()) {
        var entries: [BirthdayEntry] = []
        for (index, member) in graph.members.enumerated() {
            guard let birthday = member.birthday, let yearly = YearlyDate(birthday) else { continue }
            let isDeceased = living.isDead(member, on: today)
            if isDeceased && !includeDeceased { continue }
            let next = yearly.next(onOrAfter: today, leapDay: leapDay)
            let age: Age?
            if isDeceased {
                age = member.deathDate.flatMap { Age(birthday: birthday, death: $0, leapDay: leapDay) }
            } else {
                age = Age(birthday: birthday, on: today, leapDay: leapDay)
            }
            let turning = isDeceased ? nil : Age(birthday: birthday, on: next, leapDay: leapDay)
            let name = member.nickname.flatMap { $0.isEmpty ? nil : $0 } ?? (member.fullName.isEmpty ? "(no name)" : member.fullName)
            entries.append(BirthdayEntry(
                member: index, memberID: member.id, name: name, birthday: birthday, yearly: yearly, nextBirthday: next,
                countdown: Countdown(from: today, to: next), age: age, turning: turning, isDeceased: isDeceased
            ))
        }
        self.entries = entries
    }

    private init(entries: [BirthdayEntry]) {
        self.entries = entries
    }

    /// The entries in `order`; ties fall back to the name, then the id, so the order is total.
    public func sorted(by order: BirthdaySort) -> BirthdayList {
        func byName(_ a: BirthdayEntry, _ b: BirthdayEntry) -> Bool {
            let (left, right) = (a.name.lowercased(), b.name.lowercased())
            return left != right ? left < right : a.memberID < b.memberID
        }
        let sorted: [BirthdayEntry]
        switch order {
        case .name:
            sorted = entries.sorted(by: byName)
        case .age:
            // Oldest first: the earliest birthday; birthdays without a year come last.
            sorted = entries.sorted { a, b in
                switch (a.birthday.sortKey, b.birthday.sortKey) {
                case let (left?, right?) where left != right: return left < right
                case (.some, nil): return true
                case (nil, .some): return false
                default: return byName(a, b)
                }
            }
        case .birthday:
            sorted = entries.sorted { a, b in
                (a.yearly.month, a.yearly.day) != (b.yearly.month, b.yearly.day)
                    ? (a.yearly.month, a.yearly.day) < (b.yearly.month, b.yearly.day) : byName(a, b)
            }
        case .next:
            sorted = entries.sorted { a, b in a.countdown.days != b.countdown.days ? a.countdown.days < b.countdown.days : byName(a, b) }
        }
        return BirthdayList(entries: sorted)
    }

    /// Only the birthdays at most `days` days away.
    public func within(days: Int) -> BirthdayList {
        BirthdayList(entries: entries.filter { $0.countdown.days <= days })
    }

    /// Only the birthdays with a month and a day but no year: the ones to ask about and complete.
    public var missingYear: BirthdayList {
        BirthdayList(entries: entries.filter { $0.birthday.yearText == nil })
    }
}
