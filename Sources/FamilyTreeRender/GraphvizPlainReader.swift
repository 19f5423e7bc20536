import FamilyTree
import FamilyTreeLayout

/// Reads Graphviz's `-Tplain` output for a graph written by `DOTWriter.structure`, so that
/// Graphviz's layout can be measured with `LayoutMetrics` beside ours.
public enum GraphvizPlainReader {
    /// Errors reading `-Tplain` text.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The drawing in points with y growing downward, like ours.
    public static func drawing(fromPlain text: String, of graph: FamilyGraph) throws(Failure) -> FamilyDrawing {
        var centres: [String: Point] = [:]
        var sizes: [String: Size] = [:]
        var height = 0.0
        for line in text.split(separator: "\n") {
            var fields = PlainFields(line)
            switch fields.next() {
            case "graph":
                _ = fields.next()
                _ = fields.next()
                height = Double(fields.next() ?? "") ?? 0
            case "node":
                guard let name = fields.next(), let x = fields.next().flatMap(Double.init), let y = fields.next().flatMap(Double.init),
                      let width = fields.next().flatMap(Double.init), let boxHeight = fields.next().flatMap(Double.init) else {
                    throw Failure(description: "unreadable node line: \(line.prefix(80))")
                }
                centres[name] = Point(x: x * 72, y: y * 72)
                sizes[name] = Size(width: width * 72, height: boxHeight * 72)
            default:
                continue
            }
        }
        func flipped(_ point: Point) -> Point { Point(x: point.x, y: height * 72 - point.y) }
        var memberCentres: [Point] = []
        var memberSizes: [Size] = []
        for member in graph.members {
            let name = StructureGraph.memberNodeName(member)
            guard let centre = centres[name], let size = sizes[name] else { throw Failure(description: "member \(member.id) missing from Graphviz output") }
            memberCentres.append(flipped(centre))
            memberSizes.append(size)
        }
        var unionPoints: [Point] = []
        for union in graph.unions {
            guard let point = centres[StructureGraph.unionNodeName(union)] else { throw Failure(description: "union \(union.id) missing from Graphviz output") }
            unionPoints.append(flipped(point))
        }
        return FamilyDrawing(memberCentres: memberCentres, memberSizes: memberSizes, unionPoints: unionPoints)
    }
}

/// Splits a `-Tplain` line into fields; names may be double-quoted with backslash escapes.
private struct PlainFields {
    private var rest: Substring

    init(_ line: Substring) { rest = line }

    mutating func next() -> String? {
        rest = rest.drop { $0 == " " }
        guard let first = rest.first else { return nil }
        if first != "\"" {
            let end = rest.firstIndex(of: " ") ?? rest.endIndex
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }
        var value = ""
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex, rest[index] != "\"" {
            if rest[index] == "\\", rest.index(after: index) < rest.endIndex { index = rest.index(after: index) }
            value.append(rest[index])
            index = rest.index(after: index)
        }
        rest = index < rest.endIndex ? rest[rest.index(after: index)...] : rest[rest.endIndex...]
        return value
    }
}
