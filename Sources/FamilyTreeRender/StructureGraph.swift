import FamilyTree
import FamilyTreeLayout

/// The family as a graph for Graphviz `dot` to lay out: a point-shaped node per union,
/// partner -> union -> child edges, partners on one rank (kept in order by an invisible edge),
/// children on one rank in sibling order (an invisible chain), cross-bloodline connections dashed.
///
/// One description, two writers: `DOTWriter.structure` prints it as DOT text, and the Graphviz
/// engine builds it through cgraph, so both give Graphviz the same graph.
public struct StructureGraph: Sendable, Hashable {
    /// A name and its attributes, in a fixed order.
    public struct Node: Sendable, Hashable {
        /// The node's DOT name (see `memberNodeName(id:)` and `unionNodeName(id:)`).
        public var name: String
        /// The node's attributes, in the order written.
        public var attributes: [Attribute]
    }

    /// A DOT edge.
    public struct Edge: Sendable, Hashable {
        /// The name of the node the edge leaves.
        public var tail: String
        /// The name of the node it enters.
        public var head: String
        /// The edge's attributes, in the order written.
        public var attributes: [Attribute]
    }

    /// A DOT attribute `name=value`; the value is quoted when written.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name.
        public var name: String
        /// The attribute's value, unquoted.
        public var value: String

        /// The attribute `name=value`.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Attributes of the whole graph (rank direction, separation).
    public var graphAttributes: [Attribute]
    /// Attributes every node has unless it says otherwise.
    public var nodeDefaults: [Attribute]
    /// Attributes every edge has unless it says otherwise.
    public var edgeDefaults: [Attribute]
    /// The nodes: members, then union points.
    public var nodes: [Node]
    /// The edges: partner to union, union to child, cross-bloodline.
    public var edges: [Edge]
    /// Groups of node names kept on one rank.
    public var sameRank: [[String]]

    /// Text as a Graphviz label (an "escString"): a backslash doubled so no name can form one of
    /// Graphviz's escapes (`\N`, `\l`, ...), a line break as `\n`.
    public static func escString(_ text: String) -> String {
        SafeText.lines(text).map { line in
            var result = ""
            for scalar in line.unicodeScalars {
                if scalar == "\\" { result += "\\\\" } else { result.unicodeScalars.append(scalar) }
            }
            return result
        }.joined(separator: "\\n")
    }

    /// The name of a union's node: `u:` and the union's id (see `memberNodeName(id:)`).
    public static func unionNodeName(_ union: Union) -> String { "u:" + nodeSafe(union.id) }

    /// The name of a member's node (see `memberNodeName(id:)`).
    public static func memberNodeName(_ member: Member) -> String { memberNodeName(id: member.id) }

    /// The name of the node of the member with `id`: the id itself when it has no `\\`, `"`, `%`,
    /// control character or character XML forbids and does not start with `u:` or `m:`; otherwise `m:` and the id with those
    /// characters as `%XX`. Names are unique (no member shares a node with a union or another
    /// member) and hold nothing a DOT reader could take for the end of a string.
    public static func memberNodeName(id: String) -> String {
        let safe = nodeSafe(id)
        return safe == id && !id.hasPrefix("u:") && !id.hasPrefix("m:") ? id : "m:" + safe
    }

    /// `id` with `%`, `\\`, `"`, control characters and those XML forbids percent-encoded (an
    /// injective mapping).
    private static func nodeSafe(_ id: String) -> String {
        func needsEncoding(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "%" || scalar == "\\" || scalar == "\"" || SafeText.isTerminalControl(scalar) || !SafeText.isXMLCharacter(scalar)
        }
        guard id.unicodeScalars.contains(where: needsEncoding) else { return id }
        var name = ""
        for scalar in id.unicodeScalars {
            if needsEncoding(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                name += "%" + (hex.count == 1 ? "0" : "") + hex
            } else {
                name.unicodeScalars.append(scalar)
            }
        }
        return name
    }

    /// `points` in inches, as Graphviz sizes nodes, rounded up to a ten-thousandth of an inch.
    static func inches(_ points: Double) -> String {
        let units = Int((points / 72 * 10_000).rounded(.up))
        let fraction = String(units % 10_000)
        return "\(units / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    /// The structure of `graph`, labelled by `labeler`, ranked in `direction`.
    public init(_ graph: FamilyGraph, labeler: Labeler = Labeler(), direction: LayoutDirection = .topDown) {
        graphAttributes = [Attribute("rankdir", direction == .topDown ? "TB" : "LR"), Attribute("newrank", "true"),
                           Attribute("nodesep", "0.3"), Attribute("ranksep", "0.5")]
        nodeDefaults = [Attribute("shape", "box"), Attribute("style", "rounded,filled"), Attribute("fillcolor", "#f4f6fb"),
                        Attribute("color", "#5b6b8c"), Attribute("fontname", "Helvetica"), Attribute("fontsize", "11")]
        edgeDefaults = [Attribute("arrowhead", "none"), Attribute("color", "#5b6b8c")]
        nodes = graph.members.map { member in
            var attributes = [Attribute("label", StructureGraph.escString(labeler.lines(for: member).joined(separator: "\n"))),
                              Attribute("tooltip", StructureGraph.escString(member.fullName))]
            // Boxes at least as large as ours, so both engines lay out the same boxes.
            let size = labeler.boxSize(for: member)
            attributes += [Attribute("width", StructureGraph.inches(size.width)), Attribute("height", StructureGraph.inches(size.height))]
            if let color = member.color { attributes.append(Attribute("fillcolor", color)) }
            return Node(name: StructureGraph.memberNodeName(member), attributes: attributes)
        }
        edges = []
        sameRank = []
        let topology = graph.topology
        for (index, union) in graph.unions.enumerated() {
            let unionName = StructureGraph.unionNodeName(union)
            nodes.append(Node(name: unionName, attributes: [Attribute("shape", "point"), Attribute("width", "0.08"), Attribute("label", "")]))
            let partners = topology.partners[index].map { StructureGraph.memberNodeName(graph.members[$0]) }
            let partnerAttributes = LineStyle.isDivorced(index, in: graph) ? [Attribute("style", LineStyle.divorced.dotStyle)] : []
            for partner in partners { edges.append(Edge(tail: partner, head: unionName, attributes: partnerAttributes)) }
            if partners.count == 2 {
                sameRank.append(partners)
                edges.append(Edge(tail: partners[0], head: partners[1], attributes: [Attribute("style", "invis"), Attribute("weight", "10")]))
            }
            for (child, link) in zip(topology.children[index], union.children) {
                let style = LineStyle(child: child, of: index, in: graph)
                let attributes = style.map { [Attribute("style", $0.dotStyle), Attribute("label", link.kind.rawValue), Attribute("fontsize", "9")] } ?? []
                edges.append(Edge(tail: unionName, head: StructureGraph.memberNodeName(graph.members[child]), attributes: attributes))
            }
            // dot keeps flat edges left to right: an invisible chain holds the sibling order.
            let drawn = topology.children[index].filter { topology.primaryParentUnion[$0] == index }.map { StructureGraph.memberNodeName(graph.members[$0]) }
            if drawn.count > 1 {
                sameRank.append(drawn)
                for (older, younger) in zip(drawn, drawn.dropFirst()) {
                    edges.append(Edge(tail: older, head: younger, attributes: [Attribute("style", "invis")]))
                }
            }
        }
        for connection in graph.crossBloodlineConnections {
            edges.append(Edge(tail: StructureGraph.memberNodeName(id: connection.toNewParent), head: StructureGraph.memberNodeName(id: connection.fromChild), attributes: [
                Attribute("style", "dashed"), Attribute("color", "#d9822b"), Attribute("penwidth", "2"), Attribute("class", "cross-bloodline"),
            ]))
        }
    }

    /// The graph as DOT text.
    public var dotText: String {
        func list(_ attributes: [Attribute]) -> String {
            attributes.map { "\($0.name)=\(DOTWriter.quoted($0.value))" }.joined(separator: ", ")
        }
        var dot = "digraph family {\n"
        dot += "  graph [\(list(graphAttributes))];\n"
        dot += "  node [\(list(nodeDefaults))];\n"
        dot += "  edge [\(list(edgeDefaults))];\n"
        for node in nodes { dot += "  \(DOTWriter.quoted(node.name)) [\(list(node.attributes))];\n" }
        for group in sameRank { dot += "  { rank=same; \(group.map(DOTWriter.quoted).joined(separator: "; ")); }\n" }
        for edge in edges {
            dot += "  \(DOTWriter.quoted(edge.tail)) -> \(DOTWriter.quoted(edge.head))"
            dot += edge.attributes.isEmpty ? ";\n" : " [\(list(edge.attributes))];\n"
        }
        return dot + "}\n"
    }
}
