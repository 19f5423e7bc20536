#if Graphviz
import CGraphviz

/// What a cgraph graph says, independent of statement order: nodes with every attribute value,
/// edges (with their attributes) counted, and the groups kept on one rank. Two graphs with the same
/// summary are the same graph to Graphviz.
package struct GraphSummary: Sendable, Hashable {
    package var graphAttributes: [String: String]
    package var nodes: [String: [String: String]]
    /// "tail -> head [name=value, ...]" and how many such edges there are.
    package var edges: [String: Int]
    /// The node sets of subgraphs with rank=same.
    package var sameRank: Set<Set<String>>

    /// Parses DOT text with cgraph (agmemread) and summarizes it.
    package init(dot text: String) throws {
        self = try Graphviz.withContext { _ throws(GraphvizError) in
            try Graphviz.withParsed(text) { graph throws(GraphvizError) in GraphSummary(graph) }
        }
    }

    init(_ graph: UnsafeMutablePointer<Agraph_t>) {
        func name(_ object: UnsafeMutableRawPointer) -> String { String(cString: agnameof(object)) }
        func attributes(of object: UnsafeMutableRawPointer, kind: Int32) -> [String: String] {
            var values: [String: String] = [:]
            var symbol = agnxtattr(graph, kind, nil)
            while let current = symbol {
                values[String(cString: current.pointee.name)] = String(cString: agxget(object, current))
                symbol = agnxtattr(graph, kind, current)
            }
            return values
        }
        graphAttributes = attributes(of: UnsafeMutableRawPointer(graph), kind: AGRAPH)
        nodes = [:]
        edges = [:]
        sameRank = []
        var node = agfstnode(graph)
        while let current = node {
            nodes[name(current)] = attributes(of: UnsafeMutableRawPointer(current), kind: AGNODE)
            var edge = agfstout(graph, current)
            while let out = edge {
                let values = attributes(of: UnsafeMutableRawPointer(out), kind: AGEDGE).filter { $0.key != "key" }
                let key = "\(name(ft_edge_tail(out))) -> \(name(ft_edge_head(out))) [\(values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))]"
                edges[key, default: 0] += 1
                edge = agnxtout(graph, out)
            }
            node = agnxtnode(graph, current)
        }
        var subgraph = agfstsubg(graph)
        while let current = subgraph {
            let rank = "rank".withCString { agget(UnsafeMutableRawPointer(current), UnsafeMutablePointer(mutating: $0)) }
            if let rank, String(cString: rank) == "same" {
                var members = Set<String>()
                var member = agfstnode(current)
                while let inner = member {
                    members.insert(name(inner))
                    member = agnxtnode(current, inner)
                }
                sameRank.insert(members)
            }
            subgraph = agnxtsubg(current)
        }
    }
}
#endif
