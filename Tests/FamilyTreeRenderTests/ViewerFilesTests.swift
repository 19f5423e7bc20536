import Foundation
import Testing
import FamilyTree
import FamilyTreeLayout
@testable import FamilyTreeRender
import TestSupport

/// The HTML chart's viewer lives in `Sources/FamilyTreeRender/Viewer/` as files; the page embeds
/// them through the generated `HTMLViewer.swift`, and its data follows a schema of its own.
@Suite struct ViewerFilesTests {
    static let viewer = Paths.packageRoot.appendingPathComponent("Sources/FamilyTreeRender/Viewer")

    @Test func thePageEmbedsTheViewerFilesAsTheyAre() throws {
        for (file, embedded) in [("viewer.css", HTMLViewer.styleSheet), ("viewer-body.html", HTMLViewer.body), ("viewer.js", HTMLViewer.script)] {
            var text = try String(contentsOf: Self.viewer.appendingPathComponent(file), encoding: .utf8)
            if text.hasSuffix("\n") { text.removeLast() }
            #expect(text == embedded, "\(file) changed: run scripts/generate-viewer")
        }
        let check = try ChildProcess.run("python3", [Paths.packageRoot.appendingPathComponent("scripts/generate-viewer").path, "--check"])
        #expect(check.status == 0, "HTMLViewer.swift is not what scripts/generate-viewer writes")
    }

    /// The data a page carries, for a tree with every kind of line, a cross-bloodline link, a
    /// photo, contact details and a hostile name, is what `schema/viewer-data.schema.json` says.
    @Test func thePagesDataFollowsItsSchema() throws {
        let example = try Paths.exampleGraph()
        var guest = Member(id: "guest", firstName: "</script><script>alert(1)</script>", lastName: "\"Quote\" & <Tag>", sex: .other)
        guest.photo = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
        guest.notes = "line one\nline two"
        guest.nickname = "G"
        guest.color = "#123456"
        guest.birthday = PartialDate("1990-02-03")
        guest.contact = ContactDetails(uid: "card-1", phones: [LabeledValue(label: "Mobile", value: "+1 555 0100")], emails: [LabeledValue(label: "", value: "g@example.org")])
        let graph = try FamilyGraph(members: example.members + [guest], unions: example.unions, crossBloodlineConnections: example.crossBloodlineConnections)
        let labeler = Labeler(today: CalendarDate.dayNumber(year: 2026, month: 11, day: 25))
        let page = try HTMLRenderer(labeler: labeler, openOn: "guest", today: CalendarDate.dayNumber(year: 2026, month: 11, day: 25))
            .render(LayeredLayout(labeler: labeler).place(graph), of: graph)
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"family-tree-data\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let data = String(page[start.upperBound..<end.lowerBound])
        let validate = "import json, sys, jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.loads(sys.stdin.read())); print('valid')"
        let result = try ChildProcess.run("python3", ["-c", validate, Paths.packageRoot.appendingPathComponent("schema/viewer-data.schema.json").path], input: data)
        #expect(result.status == 0 && result.stdout == "valid\n", "\(result.stderr)")
        // The schema can fail: a union's child kind it does not know is refused.
        let broken = data.replacingOccurrences(of: "[0,0,1]", with: "[0,0,9]")
        #expect(broken != data)
        let refused = try ChildProcess.run("python3", ["-c", validate, Paths.packageRoot.appendingPathComponent("schema/viewer-data.schema.json").path], input: broken)
        #expect(refused.status != 0)
    }

    /// A card gives the age today only to someone who may be living: not to a person born longer
    /// ago than anyone lives with no death recorded ("Age ~143" on a card of 1882).
    @Test func aCardHasNoAgeForSomeoneBornLongerAgoThanAnyoneLives() throws {
        let graph = try FamilyGraph(json: Array(#"{"members": [{"id": "old", "firstName": "Alexander", "birthday": "1882"}, {"id": "young", "firstName": "Mia", "birthday": "1950-06-21"}]}"#.utf8))
        let today = CalendarDate.dayNumber(year: 2026, month: 11, day: 25)
        let labeler = Labeler(today: today)
        let page = try HTMLRenderer(labeler: labeler, today: today).render(LayeredLayout(labeler: labeler).place(graph), of: graph)
        #expect(page.contains(#""a":"76""#), "the living have an age")
        #expect(!page.contains(#""a":"~144""#) && !page.contains(#""a":"144""#) && !page.contains(#""a":"~143""#), "no age for the presumed dead")
    }

    /// A page too big to read whole starts at the eldest of the top generation of its largest
    /// family, not at an older person standing apart.
    @Test func aPageStartsAtTheTopOfItsLargestFamily() throws {
        let graph = try FamilyGraph(json: Array(#"""
            {"members": [{"id": "z", "firstName": "Zed", "birthday": "1700"}, {"id": "x", "firstName": "X", "birthday": "1790"},
              {"id": "y", "firstName": "Y"}, {"id": "ann", "firstName": "Ann", "birthday": "1900"},
              {"id": "bob", "firstName": "Bob", "birthday": "1898"}, {"id": "c", "firstName": "C"}, {"id": "d", "firstName": "D"},
              {"id": "e", "firstName": "E", "birthday": "1800"}, {"id": "f", "firstName": "F"}],
             "unions": [{"id": "xy", "partners": ["x", "y"]}, {"id": "ab", "partners": ["ann", "bob"], "children": ["c", "d"]},
              {"id": "ce", "partners": ["c", "e"], "children": ["f"]}]}
            """#.utf8), file: "start.json")
        let layout = LayeredLayout(labeler: Labeler()).place(graph)
        #expect(HTMLRenderer.startingMember(in: graph, layout: layout) == graph.index(of: "bob"))
        let page = try HTMLRenderer().render(layout, of: graph)
        #expect(page.contains("\"start\":\(graph.index(of: "bob")!)"))
        let empty = try FamilyGraph(json: Array(#"{"members": []}"#.utf8), file: "empty.json")
        #expect(HTMLRenderer.startingMember(in: empty, layout: LayeredLayout().place(empty)) == nil)
    }

    /// A large tree's first picture (drawn before its layout) opens where the laid-out page will.
    @Test func theLikelyStartIsWhereTheLaidOutPageStarts() throws {
        var agreed = 0, trees = 0
        for seed in UInt64(1)...5 {
            let graph = try FamilyGraph(document: TreeGenerator(memberCount: 300, seed: seed).generate())
            let layout = LayeredLayout(labeler: Labeler()).place(graph)
            trees += 1
            if HTMLRenderer.likelyStartingMember(in: graph) == HTMLRenderer.startingMember(in: graph, layout: layout) { agreed += 1 }
        }
        #expect(agreed == trees)
        let empty = try FamilyGraph(json: Array(#"{"members": []}"#.utf8), file: "empty.json")
        #expect(HTMLRenderer.likelyStartingMember(in: empty) == nil)
    }

    /// A page told where to start starts there.
    @Test func aPageToldWhereToStartStartsThere() throws {
        let graph = try Paths.exampleGraph()
        let layout = LayeredLayout(labeler: Labeler()).place(graph)
        var renderer = HTMLRenderer()
        renderer.start = "peter"
        #expect(try renderer.renderData(layout, of: graph).contains("\"start\":\(graph.index(of: "peter")!),"))
        renderer.start = "nobody"
        let fallback = try #require(HTMLRenderer.startingMember(in: graph, layout: layout))
        #expect(try renderer.renderData(layout, of: graph).contains("\"start\":\(fallback),"))
    }
}
