import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

/// `--private living`: nothing of a living person's names, dates, photo, notes or phone reaches
/// any output, while the dead and the tree's shape stay.
@Suite struct PrivacyTests {
    static let tree = #"""
    {"members": [
      {"id": "grandpa", "firstName": "Ansgar", "lastName": "Holm", "birthday": "1901-02-03", "deathDate": "1980", "notes": "Fisherman."},
      {"id": "grandma", "firstName": "Birgit", "lastName": "Holm", "birthday": "1905"},
      {"id": "zebulon-quixote", "firstName": "Zebulon", "middleName": "Xerxes", "lastName": "Holm", "nickname": "Zebby",
       "birthday": "1990-07-04", "notes": "SECRETNOTE", "sex": "male", "color": "#c0ffee", "photo": "data:image/png;base64,UEhPVE9CWVRFUw==",
       "contact": {"uid": "card-7", "phones": [{"label": "Mobile", "value": "+46 70 999 12 34"}]},
       "events": [{"kind": "residence", "place": {"name": "SECRETPLACE"}, "notes": ["SECRETEVENTNOTE"]}, {"kind": "occupation", "value": "SECRETJOB"}],
       "citations": [{"source": "S1", "page": "SECRETPAGE"}], "gedcom": [{"tag": "_UID", "value": "SECRETUID"}]},
      {"id": "wren", "firstName": "Wrenna", "lastName": "Ulvaeus", "birthday": "--08-09"},
      {"id": "kid", "firstName": "Quillon", "lastName": "Holm", "birthday": "2021-01-02"}
    ],
    "unions": [
      {"id": "holm", "partners": ["grandpa", "grandma"], "marriage": "1925-06-07", "children": ["zebulon-quixote"]},
      {"id": "zebulon-quixote+wren", "partners": ["zebulon-quixote", "wren"], "marriage": "2015-05-16", "children": ["kid"],
       "events": [{"kind": "marriage", "place": {"name": "SECRETWEDDING"}}]}
    ],
    "sources": [{"id": "S1", "title": "Parish register"}]}
    """#

    static let secrets = ["Zebulon", "Xerxes", "Zebby", "1990", "07-04", "SECRETNOTE", "UEhPVE9CWVRFUw", "PHOTOBYTES", "999 12 34", "c0ffee",
                          "Wrenna", "08-09", "Aug 9", "Quillon", "2021", "2015", "zebulon", "quixote", "wren", "kid",
                          "SECRETPLACE", "SECRETEVENTNOTE", "SECRETJOB", "SECRETPAGE", "SECRETUID", "SECRETWEDDING"]

    @Test func noLivingPersonsDetailsReachAnyOutput() async throws {
        let scratch = try Scratch()
        try scratch.write("family.json", Self.tree)
        let tree = scratch.path("family.json").path
        var outputs: [String: String] = [:]
        for (name, extra) in [("out.svg", []), ("out.dot", []), ("pinned.dot", ["--format", "dot-positioned"]), ("layout.json", []),
                              ("occupations.svg", ["--label", "name-occupation"])] as [(String, [String])] {
            #expect(await scratch.run(["render", tree, "--private", "living", "--today", "2026-11-23", "-o", scratch.path(name).path] + extra) == 0)
            outputs[name] = try scratch.read(name)
        }
        for version in ["7.0", "5.5.1"] {
            let name = "out-\(version).ged"
            #expect(await scratch.run(["export", tree, "--private", "living", "--today", "2026-11-23", "--gedcom-version", version, "-o", scratch.path(name).path]) == 0)
            outputs[name] = try scratch.read(name)
        }
        for (name, text) in outputs {
            for secret in Self.secrets { #expect(!text.contains(secret), "\(name) holds \(secret)") }
            // The dead stay as they were, the living are there as Living (layout JSON: by plain ids).
            #expect(text.contains(name == "layout.json" ? "\"grandpa\"" : "Ansgar"), "\(name)")
            #expect(text.contains(name == "layout.json" ? "\"living-1\"" : "Living"), "\(name)")
        }
        // The page's card lists events and sources: none of the living's.
        #expect(await scratch.run(["render", tree, "--private", "living", "--today", "2026-11-23", "-o", scratch.path("out.html").path]) == 0)
        let page = try scratch.read("out.html")
        for secret in Self.secrets where secret.hasPrefix("SECRET") { #expect(!page.contains(secret), "out.html holds \(secret)") }
        #expect(outputs["out.svg"]!.components(separatedBy: "data-member=").count - 1 == 5)
        #expect(outputs["out-7.0.ged"]!.contains("1 RESN PRIVACY") && outputs["out-5.5.1.ged"]!.contains("1 RESN privacy"))
        // Birgit has no death date but was born over 110 years before the day given: not living.
        #expect(outputs["out.svg"]!.contains("Birgit"))
        // --private-names none leaves the surname out too.
        #expect(await scratch.run(["render", tree, "--private", "living", "--private-names", "none", "--today", "2026-11-23", "-o", scratch.path("none.svg").path]) == 0)
        #expect(try !scratch.read("none.svg").contains("Living Holm") && scratch.read("none.svg").contains("Living"))
    }

    /// Every command that prints people takes `--private living`: birthday lists and calendars
    /// keep only the dead, `relation` shows the living as "Living" in words without sex.
    @Test func birthdaysCalendarsAndRelationsHideTheLivingToo() throws {
        let scratch = try Scratch()
        try scratch.write("family.json", Self.tree)
        let tree = scratch.path("family.json").path
        let hiding = ["--private", "living", "--today", "2026-11-23"]
        var outputs: [String: String] = [:]
        for format in ["table", "json", "csv"] {
            let result = try ChildProcess.run(ProcessTests.binary, ["birthdays", tree, "--format", format, "--include-deceased"] + hiding)
            #expect(result.status == 0, "\(result.stderr)")
            outputs["birthdays \(format)"] = result.stdout
        }
        #expect(outputs["birthdays csv"]!.contains("Ansgar Holm"), "the dead stay")
        for (name, extra) in [("year.svg", ["--year", "2026"]), ("month.svg", ["--month", "2026-07"]), ("feed.ics", ["--ics"])] {
            let result = try ChildProcess.run(ProcessTests.binary, ["calendar", tree, "--include-deceased", "-o", scratch.path(name).path] + extra + hiding)
            #expect(result.status == 0, "\(result.stderr)")
            outputs[name] = try scratch.read(name)
        }
        #expect(outputs["feed.ics"]!.contains("Ansgar"), "the dead's birthdays stay in the feed")
        let closest = try ChildProcess.run(ProcessTests.binary, ["relation", "Ansgar Holm", "Zebulon Holm", "--tree", tree] + hiding)
        #expect(closest.status == 0, "\(closest.stderr)")
        #expect(closest.stdout == "Living Holm is Ansgar Holm's child\n", "\(closest.stdout)")
        outputs["relation"] = closest.stdout
        for extra in [["grandpa", "zebulon-quixote", "--format", "json", "--all"], ["--all-from", "grandpa"]] {
            let result = try ChildProcess.run(ProcessTests.binary, ["relation", "--tree", tree] + extra + hiding)
            #expect(result.status == 0, "\(result.stderr)")
            outputs["relation \(extra.joined(separator: " "))"] = result.stdout
        }
        #expect(outputs["relation --all-from grandpa"]!.contains(#""id":"living-1""#))
        // Without --private, the same commands do show the living: the checks above can fail.
        let open = try ChildProcess.run(ProcessTests.binary, ["relation", "Ansgar Holm", "Zebulon Holm", "--tree", tree])
        #expect(open.stdout == "Zebulon Xerxes Holm is Ansgar Holm's son\n", "\(open.stdout)")
        for (name, text) in outputs {
            // A calendar names every day it draws (`data-date="2026-07-04"`): there, a date says nothing.
            let secrets = name.hasSuffix(".svg") ? Self.secrets.filter { !["07-04", "08-09"].contains($0) } : Self.secrets
            for secret in secrets + ["'s son", "\"son\""] { #expect(!text.contains(secret), "\(name) holds \(secret)") }
        }
    }

    /// The living lose their sex and box colour too (a colour means whatever its maker meant).
    @Test func aLivingPersonsSexAndColourAreHidden() throws {
        let graph = try FamilyGraph(json: Array(Self.tree.utf8))
        let living = LivingRule().living(in: graph, today: CalendarDate.dayNumber(year: 2026, month: 11, day: 23))
        let hidden = graph.privatizingLiving(living).graph
        #expect(graph.members[2].sex == .male && graph.members[2].color != nil)
        #expect(hidden.members[2].sex == nil && hidden.members[2].color == nil)
    }

    @Test func theLivingRuleFollowsItsYears() throws {
        let graph = try FamilyGraph(json: Array(Self.tree.utf8))
        let today = CalendarDate.dayNumber(year: 2026, month: 11, day: 23)
        let living = LivingRule().living(in: graph, today: today)
        #expect(living == [false, false, true, true, true])
        // A member with no birth year whose child was born over 90 years ago is taken as dead.
        #expect(LivingRule(childBornYearsAgo: 3).living(in: graph, today: today)[3] == false)
        #expect(LivingRule(maximumAge: 30).living(in: graph, today: today)[2] == false)
    }
}

@Suite struct RelationLabelTests {
    /// A home person outside the part drawn is related to all the same: relations are read in the
    /// whole tree (#34: "--home Y fails when Y is outside the drawn part, although Y is in the tree").
    @Test func aHomePersonOutsideThePartDrawnStillNamesTheRelations() throws {
        let scratch = try Scratch()
        let result = try ChildProcess.run(ProcessTests.binary, ["render", scratch.path("tree.json").path, "--root", "sophie", "--generations", "0",
                                                                "--home", "heinrich", "--label", "relation", "-o", scratch.path("part.svg").path])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try scratch.read("part.svg")
        #expect(svg.contains("Great-granddaughter") && !svg.contains("data-member=\"heinrich\""), "Sophie, drawn alone, is Heinrich's great-granddaughter")
        let unknown = try ChildProcess.run(ProcessTests.binary, ["render", scratch.path("tree.json").path, "--home", "nobody at all", "--label", "relation",
                                                                 "-o", scratch.path("none.svg").path])
        #expect(unknown.status == 1 && unknown.stderr.contains("nobody at all"), "\(unknown.stderr)")
        #expect(try !scratch.files().contains("none.svg"))
    }

    @Test func everyBoxSaysHowItsPersonIsRelatedToTheHomePerson() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run(["render", tree, "--home", "Sophie Müller", "--label", "relation", "-o", scratch.path("home.svg").path]) == 0)
        let svg = try scratch.read("home.svg")
        for label in ["Home person", "Great-grandfather", "Half-uncle", "Aunt (by adoption)", "First cousin 1x removed", "Half first cousin"] {
            #expect(svg.contains(">\(label)<"), "\(label)")
        }
        #expect(await scratch.run(["render", tree, "--label", "relation"]) == 2, "relation labels need a home person")
        // With the living hidden, the labels stay and the names go.
        #expect(await scratch.run(["render", tree, "--home", "sophie", "--label", "relation", "--private", "living", "--today", "2026-11-23", "-o", scratch.path("private.svg").path]) == 0)
        #expect(try scratch.read("private.svg").contains(">Half first cousin<") && !scratch.read("private.svg").contains("Chloé"))
    }
}
