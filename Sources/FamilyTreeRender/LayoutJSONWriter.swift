import FamilyTree
import FamilyTreeLayout

/// Writes a layout as JSON (`--format layout-json`) for apps that draw it themselves.
///
/// `members[]`: `id`, `x`, `y`, `width`, `height` (box top-left and size, y grows downward), `layer`;
/// `unions[]`: `id`, `partners`, `children` (member ids in drawn order), `x`, `y` (the union point);
/// `edges[]`: `kind`, `from` and `to` (`{"member": id}` or `{"union": id}`), `points` (`[[x, y], ...]`); and the drawing's `width`, `height`,
/// `direction` and `layerCount`.
public enum LayoutJSONWriter {
    public static func render(_ layout: Layout, of graph: FamilyGraph) -> String {
        func number(_ value: Double) -> JSONValue { .number(Formatting.number(value)) }
        func id(_ member: Int) -> JSONValue { .string(graph.members[member].id) }
        let members = layout.boxes.map { box -> JSONValue in
            .object(["id": id(box.member), "x": number(box.x), "y": number(box.y), "width": number(box.width),
                     "height": number(box.height), "layer": .number(String(box.layer))])
        }
        let unions = layout.unions.map { union -> JSONValue in
            .object(["id": .string(graph.unions[union.union].id), "partners": .array(union.partners.map(id)),
                     "children": .array(union.children.map(id)), "x": number(union.x), "y": number(union.y)])
        }
        let edges = layout.edges.map { edge -> JSONValue in
            func endpoint(_ endpoint: Layout.Endpoint) -> JSONValue {
                switch endpoint {
                case .member(let member): .object(["member": id(member)])
                case .union(let union): .object(["union": .string(graph.unions[union].id)])
                }
            }
            return .object(["kind": .string(edge.kind.rawValue), "from": endpoint(edge.from), "to": endpoint(edge.to),
                            "points": .array(edge.points.map { .array([number($0.x), number($0.y)]) })])
        }
        return JSONWriter.string(from: .object([
            "width": number(layout.width), "height": number(layout.height), "direction": .string(layout.direction.rawValue),
            "layerCount": .number(String(layout.layerCount)), "members": .array(members), "unions": .array(unions), "edges": .array(edges),
        ]))
    }
}
