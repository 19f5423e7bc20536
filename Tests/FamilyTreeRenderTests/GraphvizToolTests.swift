import Foundation
import Testing
import FamilyTree
import FamilyTreeLayout
@testable import FamilyTreeRender
import TestSupport

/// Runs a Graphviz command-line tool (Debian package `graphviz`) on DOT text.
func runGraphviz(_ tool: String, _ arguments: [String], input: String) throws -> String {
    let result = try ChildProcess.run(tool, arguments, input: input)
    guard result.status == 0 else { throw GraphvizFailure(message: "\(tool) exited \(result.status): \(result.stderr)") }
    return result.stdout
}

struct GraphvizFailure: Error, CustomStringConvertible { var message: String; var description: String { message } }

/// Node centres (inches, y up) from `-Tplain` output.
func plainNodePositions(_ plain: String) -> [String: (x: Double, y: Double)] {
    var positions: [String: (x: Double, y: Double)] = [:]
    for line in plain.split(separator: "\n") where line.hasPrefix("node ") {
        var fields: [String] = []
        var rest = Substring(line.dropFirst(5))
        // Names may be quoted.
        if rest.hasPrefix("\"") {
            let close = rest.dropFirst().firstIndex(of: "\"")!
            fields.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        } else {
            let space = rest.firstIndex(of: " ")!
            fields.append(String(rest[..<space]))
            rest = rest[space...]
        }
        let numbers = rest.split(separator: " ").prefix(2).compactMap { Double($0) }
        positions[fields[0]] = (numbers[0], numbers[1])
    }
    return positions
}

@Suite struct GraphvizToolTests {
    @Test func dotLaysOutTheStructureGraphWithCouplesOnOneRankAndSiblingsInOrder() throws {
        let graph = try Paths.exampleGraph()
        let plain = try runGraphviz("dot", ["-Tplain"], input: DOTWriter().structure(graph))
        let positions = plainNodePositions(plain)
        for member in graph.members { #expect(positions[member.id] != nil, "\(member.id) missing") }
        for union in graph.unions where union.partners.count == 2 {
            let (a, b) = (positions[union.partners[0]]!, positions[union.partners[1]]!)
            #expect(abs(a.y - b.y) < 0.001, "\(union.id) partners not on one rank")
        }
        for union in graph.unions {
            let xs = union.children.map { positions[$0.member]!.x }
            let ys = union.children.map { positions[$0.member]!.y }
            if Set(ys).count == 1 { #expect(xs == xs.sorted(), "\(union.id) children out of order in dot") }
        }
    }

    @Test func neatoDrawsThePositionedGraphWhereWePlacedIt() throws {
        let graph = try Paths.exampleGraph()
        let layout = LayeredLayout(labeler: Labeler()).place(graph)
        let plain = try runGraphviz("neato", ["-n2", "-Tplain"], input: DOTWriter().positioned(layout, of: graph))
        let positions = plainNodePositions(plain)
        // Graphviz moves the drawing so its bounding box starts at the origin: compare up to that shift.
        let first = try #require(positions[graph.members[layout.boxes[0].member].id])
        let shift = (x: first.x * 72 - layout.boxes[0].center.x, y: first.y * 72 - (layout.height - layout.boxes[0].center.y))
        for box in layout.boxes {
            let placed = try #require(positions[graph.members[box.member].id])
            #expect(abs(placed.x * 72 - shift.x - box.center.x) < 0.5)
            #expect(abs(placed.y * 72 - shift.y - (layout.height - box.center.y)) < 0.5)
        }
        // And it renders to SVG.
        let svg = try runGraphviz("neato", ["-n2", "-Tsvg"], input: DOTWriter().positioned(layout, of: graph))
        #expect(svg.contains("Karl Friedrich Müller"))
    }

    @Test func hostileNamesStayTextInDOT() throws {
        let graph = try FamilyGraph(members: [
            Member(id: "a\"b", firstName: "<script>alert(1)</script>", lastName: "\\\"; x=1"),
            Member(id: "c", firstName: "C"),
        ], unions: [Union(id: "u\"1", partners: ["a\"b", "c"])])
        let structure = DOTWriter().structure(graph)
        let svg = try runGraphviz("dot", ["-Tsvg"], input: structure)
        #expect(!svg.contains("<script"))
        #expect(svg.contains("&lt;script&gt;"))
        let layout = LayeredLayout(labeler: Labeler()).place(graph)
        let positioned = try runGraphviz("neato", ["-n2", "-Tsvg"], input: DOTWriter().positioned(layout, of: graph))
        #expect(!positioned.contains("<script"))
    }

    @Test func dotOutputIsDeterministic() throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 300, seed: 3).generate())
        #expect(DOTWriter().structure(graph) == DOTWriter().structure(graph))
        let layout = LayeredLayout(labeler: Labeler()).place(graph)
        #expect(try DOTWriter().positioned(layout, of: graph) == DOTWriter().positioned(LayeredLayout(labeler: Labeler()).place(graph), of: graph))
        _ = try runGraphviz("dot", ["-Tplain"], input: DOTWriter().structure(graph))
    }
}
