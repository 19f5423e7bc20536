import Testing
@testable import FamilyTree

@Suite struct JSONTests {
    @Test func parsesAndWritesWithSortedKeys() throws {
        let document = try JSONParser.parse(#"{"b": [1, 2.5e3, -0.5], "a": {"z": null, "y": true}, "s": "Zoë \"q\" \u00e9\ud83c\udf33\n"}"#)
        #expect(document.root["s"]?.stringValue == "Zoë \"q\" é🌳\n")
        let text = JSONWriter.string(from: document.root)
        #expect(text == """
        {
          "a": {
            "y": true,
            "z": null
          },
          "b": [
            1,
            2.5e3,
            -0.5
          ],
          "s": "Zoë \\"q\\" é🌳\\n"
        }

        """)
        #expect(try JSONParser.parse(text).root == document.root)
    }

    /// Every escape the writer makes, control characters among them, and text it leaves as it is
    /// (DEL, accents, an emoji), pretty and compact; empty containers stay on their line; each
    /// text parses back to the value.
    @Test func writesEveryEscapeAndEmptyContainers() throws {
        let text = "tab\t, quote \", backslash \\, \u{01}\u{1F}\u{08}\u{0C}\r\n, del \u{7F}, é 😀"
        let value: JSONValue = .object([
            "b": .array([.string(text), .number("-2.5e3"), .bool(false), .null, .array([]), .object([:])]),
            "a": .object(["z": .string("")]),
            "é": .array([.array([.string("deep")])]),
        ])
        let escaped = #""tab\t, quote \", backslash \\, \u0001\u001f\b\f\r\n, del \#u{7F}, é 😀""#
        let pretty = JSONWriter.string(from: value)
        #expect(pretty == """
        {
          "a": {
            "z": ""
          },
          "b": [
            \(escaped),
            -2.5e3,
            false,
            null,
            [],
            {}
          ],
          "é": [
            [
              "deep"
            ]
          ]
        }

        """)
        let compact = JSONWriter.compactString(from: value)
        #expect(compact == #"{"a":{"z":""},"b":["# + escaped + #",-2.5e3,false,null,[],{}],"é":[["deep"]]}"#)
        #expect(JSONWriter.quoted(text) == escaped)
        for written in [pretty, compact] { #expect(try JSONParser.parse(written).root == value) }
    }

    @Test(arguments: [
        ("{\n  \"members\": [\n    {\"id\": \"a\",}\n  ]\n}", 3, 16),
        ("{\"a\": tru}", 1, 7),
        ("[1, 2", 1, 6),
        ("{\"a\": \"unterminated}", 1, 7),
        ("{\"a\": 01}", 1, 7),
        ("{\n\"é\": x}", 2, 6),
        ("", 1, 1),
        ("{} {}", 1, 4),
    ])
    func reportsLineAndColumn(text: String, line: Int, column: Int) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.location == SourceLocation(line: line, column: column)
        }
    }

    @Test func recordsWhereTopLevelRecordsStart() throws {
        let document = try JSONParser.parse("{\"members\": [\n  {\"id\": \"a\"},\n\n  {\"id\": \"b\"}\n]}")
        #expect(document.elementLocations["members"]?.map(\.line) == [2, 4])
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { _ = try JSONParser.parse(text) }
    }
}
