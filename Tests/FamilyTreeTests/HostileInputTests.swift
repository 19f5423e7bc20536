import Testing
@testable import FamilyTree

/// Inputs an attacker would write, against the core: the JSON reader, dates and the text helpers
/// every writer uses.
@Suite struct HostileInputTests {
    @Test func aMinifiedTreeIsReadInLinearTimeWithItsPlaces() throws {
        // Before: every element's column was counted from the start of its line, so a one-line
        // tree of 20,000 members took 17.7 s (release). This one has 60,000.
        let members = (0..<60_000).map { #"{"id":"m\#($0)","firstName":"N\#($0)"}"# }.joined(separator: ",")
        let text = #"{"members":["# + members + #"],"unions":[]}"#
        let clock = ContinuousClock()
        let started = clock.now
        let document = try JSONParser.parse(text)
        let elapsed = clock.now - started
        let locations = try #require(document.elementLocations["members"])
        #expect(locations.count == 60_000)
        #expect(locations[0] == FamilyTree.SourceLocation(line: 1, column: 13))
        // Each element is its own length further along the one line.
        let secondColumn = 13 + #"{"id":"m0","firstName":"N0"},"#.count
        #expect(locations[1] == FamilyTree.SourceLocation(line: 1, column: secondColumn))
        // A guard against the quadratic pass coming back (it took minutes in a debug build), not a speed claim.
        #expect(elapsed < .seconds(30))
    }

    @Test func aControlCharacterInAStringIsNamedAsItsEscape() {
        #expect {
            _ = try JSONParser.parse([UInt8](#"{"a": "x"#.utf8) + [0] + [UInt8](#""}"#.utf8))
        } throws: { error in
            String(describing: error).contains(#"escape it as \u0000"#)
        }
        #expect {
            _ = try JSONParser.parse([UInt8](#"["#.utf8) + [0x22, 0x1B, 0x22, 0x5D])
        } throws: { error in
            String(describing: error).contains(#"escape it as \u001B"#)
        }
    }

    @Test(arguments: ["1e400", "-1e400", "1e12", #"{"seconds": 1e300}"#])
    func aNumericDateOutOfRangeIsAProblemNotSilence(value: String) {
        let json = #"{"members": [{"id": "a", "firstName": "A", "birthday": \#(value)}], "unions": []}"#
        #expect {
            _ = try FamilyGraph(json: Array(json.utf8), file: "t.json")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("birthday") && text.contains("members[0]") && text.contains("no date between the years 1 and 9999")
        }
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { _ = try JSONParser.parse(text) }
    }

    @Test func xmlEscapingDropsWhatXMLForbidsAndEscapesMarkup() {
        let hostile = "<script>alert('x')</script> & \"q\" \u{FFFE}\u{FFFF}\u{0}\u{1B}[31m\u{7}ok\r\nnext\u{EF}"
        let escaped = SafeText.xmlEscaped(hostile)
        #expect(escaped == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; [31mok  next\u{EF}")
        // Characters next to the forbidden ones survive, however they are encoded.
        #expect(SafeText.xmlEscaped("\u{FFFD}\u{FFEF}\u{EFBF}€") == "\u{FFFD}\u{FFEF}\u{EFBF}€")
        for scalar in SafeText.xmlEscaped(hostile).unicodeScalars { #expect(SafeText.isXMLCharacter(scalar)) }
    }

    @Test func terminalTextShowsControlCharactersInsteadOfSendingThem() {
        #expect(SafeText.terminalSafe("\u{1B}]0;pwned\u{7}Ann\u{9B}2J") == #"\u{1B}]0;pwned\u{7}Ann\u{9B}2J"#)
        #expect(SafeText.terminalSafe("line one\nline two", keepingLineBreaks: true) == "line one\nline two")
        #expect(SafeText.terminalSafe("Zoë Ó Briain") == "Zoë Ó Briain")
    }

    @Test func singleLineAndLinesSplitAtEveryKindOfLineBreak() {
        #expect(SafeText.singleLine("Ann\n0 @X1@ INDI") == "Ann 0 @X1@ INDI")
        #expect(SafeText.singleLine("a\r\nb\u{2028}c\u{85}d\u{1B}e") == "a b c d e")
        #expect(SafeText.lines("one\r\ntwo\rthree\nfour\u{2029}five") == ["one", "two", "three", "four", "five"])
        #expect(SafeText.lines("a\u{1B}b") == ["ab"])
    }

    @Test func aHugeGenerationCountStopsWhereTheFamilyEnds() throws {
        let graph = try FamilyGraph(json: Array(#"""
        {"members": [{"id": "a", "firstName": "A"}, {"id": "b", "firstName": "B"}, {"id": "c", "firstName": "C"}],
         "unions": [{"id": "u", "partners": ["a"], "children": ["b"]}]}
        """#.utf8))
        let part = graph.neighbourhood(ofMemberAt: 0, generations: Int.max)
        #expect(part.members.map(\.id) == ["a", "b"])
    }
}

@Suite struct DuplicateKeyTests {
    @Test func aKeyWrittenTwiceIsAProblemWithItsLine() {
        let json = """
        {"members": [
          {"id": "a", "firstName": "Ann"},
          {"id": "b", "firstName": "Bob", "birthday": "1990", "firstName": "Robert"}
        ], "unions": [], "unions": []}
        """
        #expect {
            _ = try FamilyGraph(json: Array(json.utf8), file: "t.json")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("members[1].firstName (line 3)") && text.contains(#""firstName" is written twice"#)
                && text.contains("unions (line 4)") && text.contains("2 problems")
        }
    }
}
