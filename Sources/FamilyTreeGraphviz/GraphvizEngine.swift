#if Graphviz
import CGraphviz
import FamilyTree
import FamilyTreeLayout
import FamilyTreeRender
#if canImport(Glibc)
import Glibc
#endif

extension ChartEngine {
    /// Graphviz's `dot` through cgraph: it lays charts out and writes their structure DOT.
    public static let graphviz = ChartEngine(
        name: "graphviz",
        layoutEngine: { labeler, direction in GraphvizEngine(labeler: labeler, direction: direction) },
        structure: { graph, labeler, direction in try GraphvizEngine(labeler: labeler, direction: direction).dot(graph) }
    )
}

/// Graphviz `dot` as a second layout engine, through cgraph: it lays out the same structure graph
/// that `DOTWriter.structure` writes, and either reads the positions back into our `Layout` (so our
/// renderers and metrics apply) or lets Graphviz render in any of its formats.
public struct GraphvizEngine: LayoutEngine {
    /// Sizes the boxes from their labels.
    public var labeler: Labeler
    /// Top-down or left-right.
    public var direction: LayoutDirection

    /// An engine labelling with `labeler`, drawing in `direction`.
    public init(labeler: Labeler = Labeler(), direction: LayoutDirection = .topDown) {
        self.labeler = labeler
        self.direction = direction
    }

    /// Lays out `graph` with Graphviz's `dot` and returns the positions as our `Layout`
    /// (boxes at Graphviz's node positions, straight lines between them).
    public func place(_ graph: FamilyGraph) throws -> Layout {
        let structure = StructureGraph(graph, labeler: labeler, direction: direction)
        return try Graphviz.withContext { context throws(GraphvizError) in
            try Graphviz.withGraph(structure, context: context) { cgraph throws(GraphvizError) in
                guard gvLayout(context, cgraph, "dot") == 0 else { throw .layoutFailed(Graphviz.lastMessages(or: "gvLayout returned an error")) }
                defer { gvFreeLayout(context, cgraph) }
                return read(cgraph, graph: graph, structure: structure)
            }
        }
    }

    /// Graphviz's own rendering (`format` is any `-T` format it has: svg, png, pdf, ...).
    public func render(_ graph: FamilyGraph, format: String) throws -> [UInt8] {
        let structure = StructureGraph(graph, labeler: labeler, direction: direction)
        return try Graphviz.withContext { context throws(GraphvizError) in
            try Graphviz.withGraph(structure, context: context) { cgraph throws(GraphvizError) in
                guard gvLayout(context, cgraph, "dot") == 0 else { throw .layoutFailed(Graphviz.lastMessages(or: "gvLayout returned an error")) }
                defer { gvFreeLayout(context, cgraph) }
                var data: UnsafeMutablePointer<CChar>?
                var length: UInt32 = 0
                guard gvRenderData(context, cgraph, format, &data, &length) == 0, let data else {
                    throw .renderFailed(format: format, message: Graphviz.lastMessages(or: "unknown format, or no plugin for it"))
                }
                defer { gvFreeRenderData(data) }
                return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
            }
        }
    }

    /// The structure graph as DOT written by cgraph's `agwrite`.
    public func dot(_ graph: FamilyGraph) throws -> String {
        let structure = StructureGraph(graph, labeler: labeler, direction: direction)
        return try Graphviz.withContext { context throws(GraphvizError) in
            try Graphviz.withGraph(structure, context: context) { cgraph throws(GraphvizError) in try Graphviz.write(cgraph) }
        }
    }

    /// Reads node positions after gvLayout: points with y up, sizes in inches.
    private func read(_ cgraph: UnsafeMutablePointer<Agraph_t>, graph: FamilyGraph, structure: StructureGraph) -> Layout {
        let top = ft_graph_top(cgraph)
        let left = ft_graph_left(cgraph)
        let margin = 20.0
        func node(_ name: String) -> UnsafeMutablePointer<Agnode_t>? {
            name.withCString { agnode(cgraph, UnsafeMutablePointer(mutating: $0), 0) }
        }
        func centre(_ node: UnsafeMutablePointer<Agnode_t>) -> Point {
            Point(x: ft_node_x(node) - left + margin, y: top - ft_node_y(node) + margin)
        }
        var boxes: [Layout.MemberBox] = []
        for (index, member) in graph.members.enumerated() {
            let created = node(StructureGraph.memberNodeName(member))!
            let (width, height) = (ft_node_width(created) * 72, ft_node_height(created) * 72)
            let point = centre(created)
            boxes.append(Layout.MemberBox(member: index, x: point.x - width / 2, y: point.y - height / 2, width: width, height: height, layer: 0))
        }
        // Layers: Graphviz ranks, as the distinct box centres across the rank direction.
        let across = boxes.map { direction == .topDown ? $0.center.y : $0.center.x }
        let distinct = Array(Set(across.map { ($0 * 10).rounded() / 10 })).sorted()
        var layerOf: [Double: Int] = [:]
        for (index, value) in distinct.enumerated() { layerOf[value] = index }
        for index in boxes.indices { boxes[index].layer = layerOf[(across[index] * 10).rounded() / 10]! }
        var layers = Array(repeating: [Int](), count: distinct.count)
        for box in boxes.sorted(by: { direction == .topDown ? ($0.center.x, $0.member) < ($1.center.x, $1.member) : ($0.center.y, $0.member) < ($1.center.y, $1.member) }) {
            layers[box.layer].append(box.member)
        }
        var unions: [Layout.UnionPoint] = []
        var edges: [Layout.Edge] = []
        let topology = graph.topology
        for (index, union) in graph.unions.enumerated() {
            let point = centre(node(StructureGraph.unionNodeName(union))!)
            let partners = topology.partners[index].sorted { boxes[$0].center.x < boxes[$1].center.x }
            let drawn = topology.children[index].filter { topology.primaryParentUnion[$0] == index }
            unions.append(Layout.UnionPoint(union: index, x: point.x, y: point.y, partners: partners, children: drawn))
            for partner in partners {
                edges.append(Layout.Edge(kind: .partner, from: .member(partner), to: .union(index), points: [boxes[partner].center, point]))
            }
            for child in topology.children[index] {
                let kind: Layout.EdgeKind = topology.primaryParentUnion[child] == index ? .child : .otherParent
                edges.append(Layout.Edge(kind: kind, from: .union(index), to: .member(child), points: [point, boxes[child].center]))
            }
        }
        for link in topology.crossLinks {
            edges.append(Layout.Edge(kind: .crossBloodline, from: .member(link.parent), to: .member(link.child), points: [boxes[link.parent].center, boxes[link.child].center]))
        }
        let width = ft_graph_right(cgraph) - left + 2 * margin
        let height = top - ft_graph_bottom(cgraph) + 2 * margin
        return Layout(boxes: boxes, unions: unions, edges: edges, width: width, height: height, layerCount: distinct.count, direction: direction, layers: layers)
    }
}
#endif
