import Foundation
import Testing
@testable import FamilyTree

/// A tree large enough to be read in many parts on several threads reads exactly as a small one
/// would: records, problems and their places in file order, union numbers counted across parts.
@Suite struct LargeTreeReadingTests {
    static let memberCount = 20_000
    static let unionCount = 9_000

    /// One member a line; the few with something wrong are where the test expects them.
    static var text: String {
        var lines = ["{\"members\": ["]
        for index in 0..<memberCount {
            var fields = "\"id\": \"m\(index)\", \"firstName\": \"Name \(index)\""
            switch index {
            case 3: fields += ", \"sex\": \"robot\""
            case 15_000: fields += ", \"birthday\": \"someday\""
            case 19_990: fields += ", \"spouse\": \"m19991\", \"children\": [\"m19992\", \"nobody\"]"
            default: fields += ", \"birthday\": \"\(1800 + index % 200)-0\(1 + index % 9)-1\(index % 10)\""
            }
            lines.append("{\(fields)}" + (index == memberCount - 1 ? "" : ","))
        }
        lines.append("], \"unions\": [")
        for index in 0..<unionCount {
            let partners = "\"partners\": [\"m\(2 * index)\", \"m\(2 * index + 1)\"]"
            let union = index == 8_500 ? "{\(partners), \"marriage\": \"never\"}" : "{\"id\": \"u\(index)\", \(partners)}"
            lines.append(union + (index == unionCount - 1 ? "" : ","))
        }
        lines.append("]}")
        return lines.joined(separator: "\n")
    }

    @Test func recordsAndProblemsStayInFileOrderAcrossParts() throws {
        let document = try TreeDocument(json: Array(Self.text.utf8))
        #expect(document.members.count == Self.memberCount)
        #expect(document.members.map(\.id) == (0..<Self.memberCount).map { "m\($0)" })
        #expect(document.memberLocations[12_345] == TreeLocation(path: "members[12345]", line: 12_347))
        // The listed unions, then the one the seed-shaped member makes.
        #expect(document.unions.count == Self.unionCount + 1)
        #expect(document.unions[8_500].id == "unions[8500]", "numbered by its place in the file, not in its part")
        #expect(document.unions[8_501].id == "u8501")
        #expect(document.unions.last?.partners == ["m19990", "m19991"])
        #expect(document.unionLocations[8_999].line == Self.memberCount + 3 + 8_999)
        let places = document.problems.map { $0.location?.path ?? "" }
        #expect(places == ["members[3].sex", "members[15000].birthday", "unions[8500].marriage", "members[19990].children[1]"])
        #expect(document.problems.map(\.location?.line) == [5, 15_002, Self.memberCount + 3 + 8_500, 19_992])
    }

    @Test func theTapeAndTheParserReadTheLargeTreeTheSame() throws {
        try JSONTapeTests.expectSameReading(Array(Self.text.utf8))
    }
}
