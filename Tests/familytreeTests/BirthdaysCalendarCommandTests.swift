import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

@Suite struct BirthdayAndCalendarCommandTests {
    @Test func birthdaysListsInEveryFormat() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("birthdays", tree, "--today", "2026-11-22", "--within", "30d", "--format", "csv") == 0)
        #expect(await scratch.run("birthdays", tree, "--today", "2026-11-22", "--sort", "age", "--include-deceased", "--format", "json") == 0)
        #expect(await scratch.run("birthdays", tree, "--within", "soon") == 2)
        #expect(await scratch.run("birthdays", tree, "--sort", "shoe-size") == 2)
        #expect(await scratch.run("birthdays", tree, "--today", "2026-13-01") == 2)
    }

    @Test func calendarWritesMonthYearAndICS() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("calendar", tree, "--month", "2027-07", "--today", "2027-07-14", "--first-weekday", "monday", "-o", scratch.path("july.svg").path) == 0)
        let committed = try String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/calendar-2027-07.svg"), encoding: .utf8)
        #expect(try scratch.read("july.svg") == committed)
        #expect(await scratch.run("calendar", tree, "--year", "2027", "--today", "2027-07-14", "--first-weekday", "mon", "-o", scratch.path("2027.svg").path) == 0)
        #expect(try scratch.read("2027.svg") == String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/calendar-2027.svg"), encoding: .utf8))
        #expect(await scratch.run("calendar", tree, "--ics", "--today", "2026-11-22", "-o", scratch.path("family.ics").path) == 0)
        #expect(try scratch.read("family.ics").hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(await scratch.run("calendar", tree, "--month", "2027-7") == 2)
        #expect(await scratch.run("calendar", tree, "--month", "2027-07", "--ics") == 2)
    }
}

@Suite struct MissingYearTests {
    @Test func birthdaysWithoutAYearAreListedAndCompletedByEdit() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        let before = try ProcessTests().run(["birthdays", tree, "--missing-year", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Tom Carter"])
        #expect(rows.first?["birthday"] as? String == "--07-14")
        #expect(await scratch.run("edit", "Tom Carter", "--birthday", "1980-07-14", "--tree", tree) == 0)
        let after = try ProcessTests().run(["birthdays", tree, "--missing-year", "--format", "json"])
        #expect(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [Any] != nil)
        #expect(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }
}
