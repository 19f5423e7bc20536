import Foundation
import Testing
@testable import FamilyTree
import TestSupport

/// The tape reader (a pass over the bytes, no dictionaries) reads every tree exactly as the
/// parsed-value reader does, and leaves to `JSONParser` every file it would speak about.
@Suite struct JSONTapeTests {
    /// Both readers' documents, field by field.
    static func expectSameReading(_ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let parsed = TreeDocumentReader.read(try JSONParser.parse(bytes))
        let tape = try #require(JSONTape(bytes), "plain JSON makes a tape", sourceLocation: sourceLocation)
        let taped = TreeDocumentReader.read(tape)
        #expect(taped.members == parsed.members, comment, sourceLocation: sourceLocation)
        #expect(taped.unions == parsed.unions, comment, sourceLocation: sourceLocation)
        #expect(taped.crossBloodlineConnections == parsed.crossBloodlineConnections, comment, sourceLocation: sourceLocation)
        #expect(taped.problems == parsed.problems, comment, sourceLocation: sourceLocation)
        #expect(taped.memberLocations == parsed.memberLocations, comment, sourceLocation: sourceLocation)
        #expect(taped.unionLocations == parsed.unionLocations, comment, sourceLocation: sourceLocation)
        #expect(taped.connectionLocations == parsed.connectionLocations, comment, sourceLocation: sourceLocation)
    }

    static let packageRoot = TestPaths.packageRoot

    @Test func theExamplesAndTheSeedAppDocumentReadTheSame() throws {
        var files = try FileManager.default.contentsOfDirectory(atPath: Self.packageRoot.appendingPathComponent("examples").path)
            .filter { $0.hasSuffix(".json") && !$0.contains("layout") }.map { "examples/" + $0 }
        files.append("Tests/FamilyTreeTests/Fixtures/seed001-app.json")
        #expect(files.count >= 2)
        for file in files {
            try Self.expectSameReading(Array(try Data(contentsOf: Self.packageRoot.appendingPathComponent(file))), "\(file)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func generatedTreesReadTheSame(seed: UInt64) throws {
        let tree = TreeGenerator(memberCount: 600, seed: seed).generate()
        try Self.expectSameReading(Array(JSONWriter.string(from: tree.jsonValue).utf8))
        // And minified, on one line.
        try Self.expectSameReading(Array(JSONWriter.compactString(from: tree.jsonValue).utf8))
    }

    /// Every shape and wrong type the reader knows, escapes and non-ASCII text, numbers as ids,
    /// timestamps as dates, nested seed members, nulls, and fields of other apps.
    @Test func oddRecordsReadTheSame() throws {
        let text = #"""
        {"appVersion": 3, "x-other": {"deep": [1, 2.5e3, -0, true, null, {"a": "\u00e9\ud83d\ude00"}]},
         "members": [
           {"id": "a", "firstName": "Ann\u00e9 \"Q\"", "lastName": "Ø\\ö", "birthday": 600000000.0, "sex": "F",
            "deathDate": {"seconds": 1700000000, "nanoseconds": 5}, "color": "#abc", "notes": "line\nbreak\ttab",
            "spouse": "b", "children": ["c", {"id": "d", "firstName": "Dee", "children": []}, "", 7, null],
            "contact": {"uid": "u-1", "phones": [{"label": "home", "value": "+1"}, 5], "emails": "x"}},
           {"id": 42, "firstName": "Num", "birthday": "about 1850", "isTopOfBloodline": true, "removed": false},
           {"id": "b", "firstName": "Bo", "spouse": {"id": "a"}, "birthday": "--03-02", "sex": "robot", "color": "red;x"},
           {"id": "c", "firstName": null, "middleName": 5, "birthday": "not a date", "photo": "data:image/png;base64,AA=="},
           {"id": "", "firstName": "Empty"},
           "not a member",
           {"firstName": "No id"}
         ],
         "unions": [
           {"id": "u1", "partners": ["a", "b", ""], "children": ["c", {"id": "42", "kind": "Adopted"}, {"id": "c", "kind": "alien"}, 3],
            "marriage": "1870", "divorcePhrase": "date unknown"},
           {"partners": ["zz"]}, 17
         ],
         "crossBloodlineConnections": [{"id": "x", "fromChild": "c", "toNewParent": "42"}, {"fromChild": "a"}, []]}
        """#
        try Self.expectSameReading(Array(text.utf8))
    }

    @Test func theRootAndTheArraysInOtherShapesReadTheSame() throws {
        for text in [#"[]"#, #""text""#, #"{}"#, #"{"members": {}}"#, #"{"members": [], "unions": "no"}"#, "\u{FEFF}{\"members\": []}"] {
            try Self.expectSameReading(Array(text.utf8), "\(text)")
        }
    }

    /// What JSONParser refuses or reports makes no tape, so its message is the one the user sees.
    @Test func whatJSONParserSpeaksAboutMakesNoTape() {
        let refused = [
            #"{"a": 1, "a": 2}"#, #"{"members": [{"id": "x", "id": "y"}]}"#, #"{"a\u0062": 1, "ab": 2}"#, #"{"\u006dembers": []}"#,
            #"{"a": 01}"#, #"{"a": 1.}"#, #"{"a": -}"#, #"{"a": 1e}"#, #"{"a": "\x"}"#, #"{"a": "\ud800"}"#, #"{"a": "\udc00x"}"#,
            "{\"a\": \"tab\there\"}", #"{"a": tru}"#, #"{"a": 1} x"#, #"{"a": [1, 2,]}"#, #"{"a" 1}"#, #"{"a": "x}"#, "",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        for text in refused {
            #expect(JSONTape(Array(text.utf8)) == nil, "\(text.prefix(40))")
        }
        // Invalid UTF-8 inside a string.
        #expect(JSONTape([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]) == nil)
        // Deep but within the limit is fine.
        #expect(JSONTape(Array((String(repeating: "[", count: 500) + String(repeating: "]", count: 500)).utf8)) != nil)
    }
}
