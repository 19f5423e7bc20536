#if Graphviz
import CGraphviz
import FamilyTreeRender
// NSLock rather than Synchronization's Mutex, which would raise the package to macOS 15 and iOS 18.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Errors from Graphviz, carrying Graphviz's own message.
public enum GraphvizError: Error, Sendable, Hashable, CustomStringConvertible {
    case graphRejected(String)
    case layoutFailed(String)
    case renderFailed(format: String, message: String)
    case writeFailed(String)

    public var description: String {
        switch self {
        case .graphRejected(let message): "Graphviz rejected the graph: \(message)"
        case .layoutFailed(let message): "Graphviz layout failed: \(message)"
        case .renderFailed(let format, let message): "Graphviz could not render \(format): \(message)"
        case .writeFailed(let message): "Graphviz could not write DOT: \(message)"
        }
    }
}

/// The one door to the Graphviz C library: it is not re-entrant, so every use goes through one
/// process-wide lock and frees every graph and layout it made before returning. The context is made
/// once and kept: Graphviz 2.42 leaks about 3.6 KB in `gvconfig` for every context it creates, even
/// after `gvFreeContext`, so one long-lived context is the leak-free choice for a long-lived app.
enum Graphviz {
    private static let lock = NSLock()
    /// Messages from Graphviz's error callback. Only touched while `lock` is held.
    nonisolated(unsafe) private static var messages: [String] = []
    /// The process's Graphviz context, made on first use. Only touched while `lock` is held.
    nonisolated(unsafe) private static var context: OpaquePointer?

    /// Runs `body` with exclusive use of Graphviz and its context; what Graphviz reports during the
    /// call is available to `body` through `lastMessages`.
    static func withContext<Result>(_ body: (OpaquePointer) throws(GraphvizError) -> Result) throws(GraphvizError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        messages = []
        let previousHandler = agseterrf { message in
            if let message { Graphviz.messages.append(String(cString: message).trimmingTrailingNewlines) }
            return 0
        }
        defer { _ = agseterrf(previousHandler) }
        if context == nil { context = gvContext() }
        guard let context else { throw .graphRejected("no Graphviz context (is the plugin configuration installed? run `dot -c`)") }
        return try body(context)
    }

    /// What Graphviz said during the current call, or `fallback`.
    static func lastMessages(or fallback: String) -> String {
        messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }

    /// Builds `structure` with cgraph's API (agopen, agnode, agedge, agsubg), runs `body` on it, closes it.
    static func withGraph<Result>(_ structure: StructureGraph, context: OpaquePointer, _ body: (UnsafeMutablePointer<Agraph_t>) throws(GraphvizError) -> Result) throws(GraphvizError) -> Result {
        // agopen copies the name.
        guard let graph = "family".withCString({ agopen(UnsafeMutablePointer(mutating: $0), ft_directed(), nil) }) else {
            throw .graphRejected(lastMessages(or: "agopen failed"))
        }
        defer { agclose(graph) }
        for attribute in structure.graphAttributes { declare(graph, kind: AGRAPH, attribute.name, attribute.value) }
        // Attributes set on some subgraphs, nodes or edges need a declared default first.
        declare(graph, kind: AGRAPH, "rank", "")
        for attribute in structure.nodeDefaults { declare(graph, kind: AGNODE, attribute.name, attribute.value) }
        for attribute in structure.edgeDefaults { declare(graph, kind: AGEDGE, attribute.name, attribute.value) }
        var nodes: [String: UnsafeMutablePointer<Agnode_t>] = [:]
        for node in structure.nodes {
            guard let created = node.name.withCString({ agnode(graph, UnsafeMutablePointer(mutating: $0), 1) }) else {
                throw .graphRejected(lastMessages(or: "cannot create node \(node.name)"))
            }
            nodes[node.name] = created
            for attribute in node.attributes { set(created, attribute) }
        }
        for (index, group) in structure.sameRank.enumerated() {
            guard let subgraph = "rank\(index)".withCString({ agsubg(graph, UnsafeMutablePointer(mutating: $0), 1) }) else {
                throw .graphRejected(lastMessages(or: "cannot create a rank group"))
            }
            set(subgraph, StructureGraph.Attribute("rank", "same"))
            for name in group { if let node = nodes[name] { _ = agsubnode(subgraph, node, 1) } }
        }
        for edge in structure.edges {
            guard let tail = nodes[edge.tail], let head = nodes[edge.head] else {
                throw .graphRejected("an edge names a node that does not exist: \(edge.tail) -> \(edge.head)")
            }
            guard let created = agedge(graph, tail, head, nil, 1) else { throw .graphRejected(lastMessages(or: "cannot create edge")) }
            for attribute in edge.attributes { set(created, attribute) }
        }
        return try body(graph)
    }

    private static func declare(_ graph: UnsafeMutablePointer<Agraph_t>, kind: Int32, _ name: String, _ value: String) {
        name.withCString { name in value.withCString { value in
            _ = agattr(graph, kind, UnsafeMutablePointer(mutating: name), UnsafeMutablePointer(mutating: value))
        } }
    }

    private static func set<Object>(_ object: UnsafeMutablePointer<Object>, _ attribute: StructureGraph.Attribute) {
        attribute.name.withCString { name in attribute.value.withCString { value in "".withCString { empty in
            _ = agsafeset(UnsafeMutableRawPointer(object), UnsafeMutablePointer(mutating: name), UnsafeMutablePointer(mutating: value), UnsafeMutablePointer(mutating: empty))
        } } }
    }

    /// Parses DOT text with cgraph (agmemread); `body` gets the graph, which is then closed.
    static func withParsed<Result>(_ text: String, _ body: (UnsafeMutablePointer<Agraph_t>) throws(GraphvizError) -> Result) throws(GraphvizError) -> Result {
        guard let graph = text.withCString({ agmemread($0) }) else { throw .graphRejected(lastMessages(or: "the DOT text does not parse")) }
        defer { agclose(graph) }
        return try body(graph)
    }

    /// The graph as DOT, written by cgraph's agwrite.
    static func write(_ graph: UnsafeMutablePointer<Agraph_t>) throws(GraphvizError) -> String {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { throw .writeFailed("no memory stream") }
        let status = agwrite(graph, UnsafeMutableRawPointer(stream))
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { throw .writeFailed(lastMessages(or: "agwrite returned \(status)")) }
        return String(cString: buffer)
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
#endif
