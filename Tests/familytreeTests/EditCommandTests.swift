import Foundation
import Testing
import FamilyTree
@testable import familytree

/// The editing commands, end to end: a family built from nothing by commands alone is the family
/// written by hand.
@Suite struct EditCommandTests {
    /// Five generations, a remarriage after a divorce, a single parent, a cross-bloodline link.
    static let handWritten = #"""
    {
      "members": [
        {"id": "heinrich-muller", "firstName": "Heinrich", "lastName": "Müller", "sex": "male", "birthday": "1890-03-14"},
        {"id": "greta-schafer", "firstName": "Greta", "lastName": "Schäfer", "sex": "female", "birthday": "about 1893"},
        {"id": "karl-friedrich-muller", "firstName": "Karl", "middleName": "Friedrich", "lastName": "Müller", "sex": "male", "birthday": "1915-02-02", "deathDate": "1990-12-24"},
        {"id": "liesel-muller", "firstName": "Liesel", "lastName": "Müller", "birthday": "1918-09-21"},
        {"id": "siobhan-kelly", "firstName": "Siobhán", "lastName": "Kelly", "birthday": "1917-11-11"},
        {"id": "anna-muller", "firstName": "Anna", "lastName": "Müller", "birthday": "1942-04-04"},
        {"id": "peter-muller", "firstName": "Peter", "lastName": "Müller", "birthday": "1945-06-30"},
        {"id": "margarethe-vogel", "firstName": "Margarethe", "lastName": "Vogel", "birthday": "between 1920 and 1922"},
        {"id": "lukas-muller", "firstName": "Lukas", "lastName": "Müller", "birthday": "1950-10-03"},
        {"id": "emily-carter", "firstName": "Emily", "lastName": "Carter", "birthday": "1947-01-19"},
        {"id": "sophie-muller", "firstName": "Sophie", "lastName": "Müller", "birthday": "1975-08-09"},
        {"id": "jonas-muller", "firstName": "Jonas", "lastName": "Müller", "birthday": "1978-03-01"},
        {"id": "zoe-dubois", "firstName": "Zoë", "lastName": "Dubois", "birthday": "1955-02-28"},
        {"id": "chloe-muller", "firstName": "Chloé", "lastName": "Müller", "nickname": "Coco", "birthday": "1984-02-29"},
        {"id": "mia-muller", "firstName": "Mia", "lastName": "Müller", "birthday": "--05-05", "notes": "Birthday known, year not."}
      ],
      "unions": [
        {"id": "heinrich-muller+greta-schafer", "partners": ["heinrich-muller", "greta-schafer"], "marriage": "1914-05-01", "children": ["karl-friedrich-muller", "liesel-muller"]},
        {"id": "karl-friedrich-muller+siobhan-kelly", "partners": ["karl-friedrich-muller", "siobhan-kelly"], "marriage": "1940-06-15", "divorce": "1947", "children": ["anna-muller", "peter-muller"]},
        {"id": "karl-friedrich-muller+margarethe-vogel", "partners": ["karl-friedrich-muller", "margarethe-vogel"], "marriage": "1948-09-04", "children": ["lukas-muller"]},
        {"id": "peter-muller+emily-carter", "partners": ["peter-muller", "emily-carter"], "marriage": "1972-07-01", "children": ["sophie-muller", "jonas-muller"]},
        {"id": "lukas-muller+zoe-dubois", "partners": ["lukas-muller", "zoe-dubois"], "children": [{"id": "chloe-muller", "kind": "adopted"}]},
        {"id": "sophie-muller", "partners": ["sophie-muller"], "children": ["mia-muller"]}
      ],
      "crossBloodlineConnections": [{"id": "c1", "fromChild": "jonas-muller", "toNewParent": "lukas-muller"}]
    }
    """#

    @Test func aFamilyBuiltByCommandsRendersAsTheSameFamilyWrittenByHand() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("built.json").path
        let commands: [[String]] = [
            ["add", "Heinrich Müller", "--born", "1890-03-14", "--sex", "male"],
            ["add", "Greta Schäfer", "--born", "about 1893", "--sex", "female"],
            ["marry", "Heinrich Müller", "Greta Schäfer", "--date", "1914-05-01"],
            ["add", "Karl Friedrich Müller", "--born", "1915-02-02", "--sex", "male", "--child-of", "heinrich-muller", "greta-schafer"],
            ["add", "Liesel Müller", "--born", "1918-09-21", "--child-of", "Heinrich Müller", "Greta Schäfer"],
            ["add", "Siobhán Kelly", "--born", "1917-11-11"],
            ["marry", "karl-friedrich-muller", "Siobhán Kelly", "--date", "1940-06-15"],
            ["add", "Anna Müller", "--born", "1942-04-04", "--child-of", "karl-friedrich-muller", "siobhan-kelly"],
            ["add", "Peter Müller", "--born", "1945-06-30", "--child-of", "karl-friedrich-muller", "siobhan-kelly"],
            ["divorce", "karl-friedrich-muller", "siobhan-kelly", "--date", "1947"],
            ["add", "Margarethe Vogel", "--born", "between 1920 and 1922"],
            ["marry", "karl-friedrich-muller", "Margarethe Vogel", "--date", "1948-09-04"],
            ["add", "Lukas Müller", "--born", "1950-10-03", "--child-of", "karl-friedrich-muller", "margarethe-vogel"],
            ["add", "Emily Carter", "--born", "1947-01-19"],
            ["marry", "Peter Müller", "Emily Carter", "--date", "1972-07-01"],
            ["add", "Sophie Müller", "--born", "1975-08-09", "--child-of", "Peter Müller", "Emily Carter"],
            ["add", "Jonas Müller", "--born", "1978-03-01", "--child-of", "Peter Müller", "Emily Carter"],
            ["add", "Zoë Dubois", "--born", "1955-02-28"],
            ["marry", "Lukas Müller", "Zoë Dubois"],
            ["add", "Chloé Müller", "--born", "1984-02-29", "--child-of", "Lukas Müller", "Zoë Dubois", "--kind", "adopted"],
            ["edit", "Chloé Müller", "--nickname", "Coco"],
            ["add", "Mia Müller", "--born=--05-05", "--child-of", "Sophie Müller", "--notes", "Birthday known, year not."],
            ["edit", "karl-friedrich-muller", "--died", "1990-12-24"],
            ["link", "Jonas Müller", "Lukas Müller", "--id", "c1"],
            ["add", "Tem Porary", "--child-of", "Lukas Müller"],
            ["remove", "tem-porary", "--with-references"],
        ]
        for command in commands {
            #expect(await FamilyTreeCommand.run(arguments: command + ["--tree", tree]) == 0, "\(command)")
        }
        try scratch.write("hand.json", Self.handWritten)
        #expect(await scratch.run("validate", tree) == 0)
        #expect(await scratch.run("render", tree, "-o", scratch.path("built.svg").path) == 0)
        #expect(await scratch.run("render", scratch.path("hand.json").path, "-o", scratch.path("hand.svg").path) == 0)
        #expect(try scratch.read("built.svg") == scratch.read("hand.svg"))
        #expect(await scratch.run("render", tree, "-o", scratch.path("built.dot").path) == 0)
        #expect(await scratch.run("render", scratch.path("hand.json").path, "-o", scratch.path("hand.dot").path) == 0)
        #expect(try scratch.read("built.dot") == scratch.read("hand.dot"))
        // The removed member left nothing behind, not even an empty union.
        #expect(try !scratch.read("built.json").contains("tem-porary"))
        #expect(try !scratch.read("built.json").contains("\"lukas-muller\"\n      ]\n    },\n    {\n      \"children\": []"))
    }

    @Test func refusedEditsLeaveTheFileByteForByte() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        let before = try scratch.read("tree.json")
        #expect(await scratch.run("marry", "karl", "margarethe", "--tree", tree) == 1, "already a couple")
        #expect(await scratch.run("add", "Greta Again", "--id", "greta", "--tree", tree) == 1, "the id is taken")
        #expect(await scratch.run("add", "Orphan", "--child-of", "nobody", "--tree", tree) == 1)
        #expect(await scratch.run("remove", "karl", "--tree", tree) == 1, "still in unions")
        #expect(await scratch.run("divorce", "peter", "anna", "--tree", tree) == 1, "not a couple")
        #expect(await scratch.run("edit", "peter", "--tree", tree) == 2, "nothing to change")
        #expect(await scratch.run("edit", "peter", "--clear", "shoe-size", "--tree", tree) == 2)
        #expect(await scratch.run("add", "Someone", "--born", "1850-02-30", "--tree", tree) == 2, "no such day")
        #expect(try scratch.read("tree.json") == before)
        #expect(try scratch.files() == ["tree.json"])
    }

    @Test func editingKeepsFieldsFamilytreeDoesNotKnow() async throws {
        let scratch = try Scratch()
        try scratch.write("app.json", #"{"schemaVersion": 3, "members": [{"id": "a", "firstName": "Ann", "birthday": 600000000.0, "appTag": {"pinned": true}}]}"#)
        let tree = scratch.path("app.json").path
        #expect(await scratch.run("edit", "Ann", "--nickname", "Annie", "--tree", tree) == 0)
        let root = try JSONParser.parse(Array(try scratch.read("app.json").utf8)).root
        #expect(root["schemaVersion"] == .number("3"))
        #expect(root["members"]?.arrayValue?.first?["birthday"] == .number("600000000.0"))
        #expect(root["members"]?.arrayValue?.first?["appTag"] == .object(["pinned": .bool(true)]))
        #expect(root["members"]?.arrayValue?.first?["nickname"] == .string("Annie"))
    }

    @Test func eventsAreTypedAsAPersonSaysThemAndShownOnTheCardAndLabels() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("edit", "Peter Müller", "--event", "burial 2020-03-04 Mount Vernon, Virginia",
                                  "--event", "occupation Carpenter in Bremen", "--event", "first communion about 1953 in St. Mary's", "--tree", tree) == 0)
        let graph = try FamilyGraph(json: Array(try scratch.read("tree.json").utf8))
        let peter = try #require(graph.member("peter"))
        #expect(peter.events.map(\.kind.word) == ["burial", "occupation", "first-communion"])
        #expect(peter.events[0].date == PartialDate("2020-03-04") && peter.events[0].place?.name == "Mount Vernon, Virginia")
        #expect(peter.events[1].value == "Carpenter" && peter.events[1].place?.name == "Bremen")
        #expect(peter.events[2].date == PartialDate("about 1953") && peter.events[2].place?.name == "St. Mary's")
        // An unknown kind is refused, and the file keeps what it had.
        let before = try scratch.read("tree.json")
        #expect(await scratch.run("edit", "Peter Müller", "--event", "coronation 1953", "--tree", tree) == 2)
        #expect(try scratch.read("tree.json") == before)
        // The occupation on the label, the burial with its place on the card.
        #expect(await scratch.run("render", tree, "--label", "name-occupation", "-o", scratch.path("out.svg").path) == 0)
        #expect(try scratch.read("out.svg").contains(">Carpenter</text>"))
        #expect(await scratch.run("render", tree, "-o", scratch.path("out.html").path) == 0)
        #expect(try scratch.read("out.html").contains("Burial: Mar 4, 2020 in Mount Vernon, Virginia"))
    }
}
