import FamilyTree
import FamilyTreeLayout

/// How a line shows the tie it stands for, beyond its kind: an adopted, step or foster child's
/// line, and the partner line of a couple that divorced. The SVG, the HTML chart and DOT each
/// draw these their own way (dashes, dots) and add a legend when a chart uses any.
enum LineStyle: String, CaseIterable {
    case adopted, step, foster, divorced

    /// The words of the legend.
    var legend: String {
        switch self {
        case .adopted: "adopted"
        case .step: "step-child"
        case .foster: "foster"
        case .divorced: "divorced"
        }
    }

    /// Graphviz's edge style: dashed for adopted and foster children and a divorced couple, dotted
    /// for a step-child.
    var dotStyle: String { self == .step ? "dotted" : "dashed" }

    /// The style of a child line to `child` from union `union`, or nil for a birth child.
    init?(child: Int, of union: Int, in graph: FamilyGraph) {
        guard let position = graph.topology.children[union].firstIndex(of: child) else { return nil }
        switch graph.unions[union].children[position].kind {
        case .birth: return nil
        case .adopted: self = .adopted
        case .step: self = .step
        case .foster: self = .foster
        }
    }

    /// Whether union `union` ended in a divorce.
    static func isDivorced(_ union: Int, in graph: FamilyGraph) -> Bool {
        graph.unions[union].divorce != nil || graph.unions[union].divorcePhrase != nil
    }

    /// The style of each of the layout's lines, in order (nil for a plain line).
    static func styles(of layout: Layout, in graph: FamilyGraph) -> [LineStyle?] {
        layout.edges.map { edge in
            switch (edge.kind, edge.from, edge.to, edge.union) {
            case (.partner, _, _, let union?): isDivorced(union, in: graph) ? .divorced : nil
            case (.child, .union(let union), .member(let child), _), (.otherParent, .union(let union), .member(let child), _):
                LineStyle(child: child, of: union, in: graph)
            default: nil
            }
        }
    }
}
