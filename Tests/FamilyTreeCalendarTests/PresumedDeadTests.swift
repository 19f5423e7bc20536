import Testing
import FamilyTree
@testable import FamilyTreeCalendar

/// Someone born longer ago than anyone lives (`LivingRule.maximumAge`, 110 years) with no death
/// recorded is taken as dead: no birthday "turns 141", no calendar event, no age today.
@Suite struct PresumedDeadTests {
    static let graph = try! FamilyGraph(json: Array(#"""
        {"members": [
          {"id": "old", "firstName": "Frederick", "birthday": "1886-06-20"},
          {"id": "oldwife", "firstName": "Ada", "birthday": "1890-03-02"},
          {"id": "young", "firstName": "Mia", "birthday": "1950-06-21"},
          {"id": "phrase", "firstName": "Otto", "birthday": "1960-06-22", "deathPhrase": "died young"},
          {"id": "dead", "firstName": "Karl", "birthday": "1915-06-23", "deathDate": "1990-01-01"}
        ],
        "unions": [{"id": "u", "partners": ["old", "oldwife"], "marriage": "1910-06-24"}]}
        """#.utf8), file: "old.json")
    let today = day("2026-06-01")

    func member(_ id: String) -> Member { Self.graph.members[Self.graph.index(of: id)!] }

    @Test func aBirthOverAHundredAndTenYearsAgoOrADeathPhraseIsDead() {
        let rule = LivingRule()
        #expect(rule.isDead(member("old"), on: today))
        #expect(!rule.isDead(member("young"), on: today))
        #expect(rule.isDead(member("phrase"), on: today) && rule.isDead(member("dead"), on: today))
        // Back when Frederick was 100, he was living.
        #expect(!rule.isDead(member("old"), on: day("1986-07-01")))
        #expect(LivingRule(maximumAge: 150).isDead(member("old"), on: today) == false)
    }

    @Test func birthdaysLeaveThePresumedDeadOutOrShowThemAsDeceased() {
        let living = BirthdayList(graph: Self.graph, today: today)
        #expect(living.entries.map(\.memberID) == ["young"])
        let everyone = BirthdayList(graph: Self.graph, today: today, includeDeceased: true)
        let old = everyone.entries.first { $0.memberID == "old" }
        #expect(old?.isDeceased == true && old?.age == nil && old?.turning == nil)
    }

    @Test func calendarsCelebrateOnlyWhileSomeoneMayBeLiving() {
        let events = FamilyEvents(graph: Self.graph)
        func labels(_ year: Int) -> [String] {
            events.events(from: CalendarDate.dayNumber(year: year, month: 6, day: 1), through: CalendarDate.dayNumber(year: year, month: 6, day: 30))
                .sorted { $0.key < $1.key }.flatMap { $0.value.map(\.label) }
        }
        #expect(labels(2026) == ["Mia · 76"])
        #expect(labels(1996) == ["Frederick · 110", "Mia · 46", "Frederick & Ada · 86 years"])
        #expect(labels(1997) == ["Mia · 47"], "Frederick would be 111")
        // A feed written today leaves them out; a living person's birthday ends at 110.
        let ics = ICSWriter().write(events, today: today)
        #expect(!ics.contains("Frederick") && ics.contains("RRULE:FREQ=YEARLY;UNTIL=20601231"))
        // Asked for everyone, everyone, every year.
        let all = FamilyEvents(graph: Self.graph, includeDeceased: true)
        #expect(all.sources.allSatisfy { $0.lastYear == nil } && all.sources.count == 6)
    }
}
