import FamilyTree
import FamilyTreeLayout

/// Writes Graphviz DOT: a structure graph for `dot` to lay out, or our layout with fixed positions.
public struct DOTWriter: Sendable {
    public var labeler: Labeler

    public init(labeler: Labeler = Labeler()) {
        self.labeler = labeler
    }

    /// The family as a graph for `dot` to lay out (see `StructureGraph`).
    public func structure(_ graph: FamilyGraph, direction: LayoutDirection = .topDown) -> String {
        StructureGraph(graph, labeler: labeler, direction: direction).dotText
    }

    /// Our layout as DOT with every node pinned (`pos`, in points, y up) and every edge given as a
    /// polyline, for `neato -n2` to draw exactly as we placed it.
    public func positioned(_ layout: Layout, of graph: FamilyGraph) -> String {
        let number = Formatting.number
        func position(_ point: Point) -> String { "\(number(point.x)),\(number(layout.height - point.y))" }
        var dot = "digraph family {\n"
        dot += "  graph [bb=\"0,0,\(number(layout.width)),\(number(layout.height))\", splines=true, outputorder=edgesfirst];\n"
        dot += "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f6fb\", color=\"#5b6b8c\", fontname=\"Helvetica\", fontsize=11, fixedsize=true];\n"
        dot += "  edge [arrowhead=none, color=\"#5b6b8c\"];\n"
        for box in layout.boxes {
            let member = graph.members[box.member]
            dot += "  \(memberNode(member)), pos=\"\(position(box.center))!\", width=\(number4(box.width / 72)), height=\(number4(box.height / 72))];\n"
        }
        for union in layout.unions {
            dot += "  \(DOTWriter.quoted("u:" + graph.unions[union.union].id)) [shape=point, width=0.08, label=\"\", pos=\"\(position(Point(x: union.x, y: union.y)))!\"];\n"
        }
        for edge in layout.edges {
            func name(_ endpoint: Layout.Endpoint) -> String {
                switch endpoint {
                case .member(let member): graph.members[member].id
                case .union(let union): "u:" + graph.unions[union].id
                }
            }
            let (from, to) = (name(edge.from), name(edge.to))
            // A polyline as a chain of straight cubic Bézier pieces: p0, then (a, b, b) per segment.
            var controls = [position(edge.points[0])]
            for (start, end) in zip(edge.points, edge.points.dropFirst()) { controls += [position(start), position(end), position(end)] }
            var attributes = "pos=\"\(controls.joined(separator: " "))\""
            if edge.kind == .crossBloodline { attributes += ", style=dashed, color=\"#d9822b\", penwidth=2" }
            if edge.kind == .otherParent { attributes += ", style=dotted" }
            dot += "  \(DOTWriter.quoted(from)) -> \(DOTWriter.quoted(to)) [\(attributes)];\n"
        }
        return dot + "}\n"
    }

    /// A member's node statement without its closing bracket.
    private func memberNode(_ member: Member) -> String {
        var attributes = "label=\(DOTWriter.quoted(StructureGraph.escString(labeler.lines(for: member).joined(separator: "\n"))))"
        attributes += ", tooltip=\(DOTWriter.quoted(StructureGraph.escString(member.fullName)))"
        if let color = member.color { attributes += ", fillcolor=\(DOTWriter.quoted(color))" }
        return "\(DOTWriter.quoted(member.id)) [\(attributes)"
    }

    private func number4(_ value: Double) -> String {
        let scaled = Int((value * 10_000).rounded())
        let fraction = String(scaled % 10_000)
        return "\(scaled / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// A DOT double-quoted string for a value as Graphviz stores it: the DOT parser undoes only
    /// `\"`, so quotes are escaped and everything else is written as it is (escape sequences in
    /// labels are Graphviz's own; see `StructureGraph.escString`).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" { result += "\\\"" } else { result.append(character) }
        }
        return result + "\""
    }
}
