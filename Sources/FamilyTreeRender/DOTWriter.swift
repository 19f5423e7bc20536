import FamilyTree
import FamilyTreeLayout

/// Writes Graphviz DOT: a structure graph for `dot` to lay out, or our layout with fixed positions.
public struct DOTWriter: Sendable {
    /// Writes each member's label.
    public var labeler: Labeler

    /// A writer labelling with `labeler`.
    public init(labeler: Labeler = Labeler()) {
        self.labeler = labeler
    }

    /// The family as a graph for `dot` to lay out (see `StructureGraph`).
    public func structure(_ graph: FamilyGraph, direction: LayoutDirection = .topDown) -> String {
        StructureGraph(graph, labeler: labeler, direction: direction).dotText
    }

    /// Our layout as DOT with every node pinned (`pos`, in points, y up) and every edge given as a
    /// polyline, for `neato -n2` to draw exactly as we placed it. Throws when `layout` was not made
    /// of `graph`.
    public func positioned(_ layout: Layout, of graph: FamilyGraph) throws(LayoutMismatch) -> String {
        try layout.check(against: graph)
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
            dot += "  \(DOTWriter.quoted(StructureGraph.unionNodeName(graph.unions[union.union]))) [shape=point, width=0.08, label=\"\", pos=\"\(position(Point(x: union.x, y: union.y)))!\"];\n"
        }
        for (edge, style) in zip(layout.edges, LineStyle.styles(of: layout, in: graph)) {
            func name(_ endpoint: Layout.Endpoint) -> String {
                switch endpoint {
                case .member(let member): StructureGraph.memberNodeName(graph.members[member])
                case .union(let union): StructureGraph.unionNodeName(graph.unions[union])
                }
            }
            let (from, to) = (name(edge.from), name(edge.to))
            // A polyline as a chain of straight cubic Bézier pieces: p0, then (a, b, b) per segment.
            var controls = [position(edge.points[0])]
            for (start, end) in zip(edge.points, edge.points.dropFirst()) { controls += [position(start), position(end), position(end)] }
            var attributes = "pos=\"\(controls.joined(separator: " "))\""
            if edge.kind == .crossBloodline { attributes += ", style=dashed, color=\"#d9822b\", penwidth=2" }
            if let style { attributes += ", style=\(style.dotStyle)" } else if edge.kind == .otherParent { attributes += ", style=dotted" }
            dot += "  \(DOTWriter.quoted(from)) -> \(DOTWriter.quoted(to)) [\(attributes)];\n"
        }
        return dot + "}\n"
    }

    /// A member's node statement without its closing bracket.
    private func memberNode(_ member: Member) -> String {
        var attributes = "label=\(DOTWriter.quoted(StructureGraph.escString(labeler.lines(for: member).joined(separator: "\n"))))"
        attributes += ", tooltip=\(DOTWriter.quoted(StructureGraph.escString(member.fullName)))"
        if let color = member.color { attributes += ", fillcolor=\(DOTWriter.quoted(color))" }
        return "\(DOTWriter.quoted(StructureGraph.memberNodeName(member))) [\(attributes)"
    }

    private func number4(_ value: Double) -> String {
        let scaled = Int((value * 10_000).rounded())
        let fraction = String(scaled % 10_000)
        return "\(scaled / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// A DOT double-quoted string that always ends where it should.
    ///
    /// Graphviz's scanner reads `\\"` as a quote and a backslash pair as two backslashes, so a
    /// quote is written `\\"` and a run of backslashes of odd length before a quote or the end gets
    /// one more backslash: no text can end the string early or open a new statement. Labels pass
    /// through `StructureGraph.escString` first (every backslash doubled), so they come back
    /// exactly; node names hold no backslash at all. Control characters other than line breaks
    /// and tabs are left out.
    static func quoted(_ text: String) -> String {
        var result = "\""
        var backslashRun = 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\":
                backslashRun += 1
                result += "\\"
                continue
            case "\"", "\n":
                // A lone backslash would escape the quote, or join the next line to this one.
                if backslashRun % 2 == 1 { result += "\\" }
                result += scalar == "\"" ? "\\\"" : "\n"
            case "\t":
                result.unicodeScalars.append(scalar)
            // Graphviz copies labels into its SVG: nothing XML forbids may pass.
            case _ where SafeText.isTerminalControl(scalar) || !SafeText.isXMLCharacter(scalar):
                continue
            default:
                result.unicodeScalars.append(scalar)
            }
            backslashRun = 0
        }
        if backslashRun % 2 == 1 { result += "\\" }
        return result + "\""
    }
}
