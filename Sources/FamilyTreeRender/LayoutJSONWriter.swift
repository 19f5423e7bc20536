import FamilyTree
import FamilyTreeLayout

/// Writes a layout as JSON (`--format layout-json`) for apps that draw it themselves.
///
/// `members[]`: `id`, `x`, `y`, `width`, `height` (box top-left and size, y grows downward), `layer`;
/// `unions[]`: `id`, `partners`, `children` (member ids in drawn order), `x`, `y` (the union point);
/// `edges[]`: `kind`, `from` and `to` (`{"member": id}` or `{"union": id}`), `points` (`[[x, y], ...]`); and the drawing's `width`, `height`,
/// `direction` and `layerCount`.
public enum LayoutJSONWriter {
    /// The layout JSON text (for small drawings; large ones stream with `render(_:of:to:)`).
    public static func render(_ layout: Layout, of graph: FamilyGraph) -> String {
        var output = CollectedOutput()
        // Collecting in memory cannot fail.
        try! render(layout, of: graph, to: &output)
        return output.text
    }

    /// Writes the layout JSON to `output` record by record, in chunks: a million members never sit
    /// in memory as one JSON value. Keys sorted, two-space indent, as every familytree JSON file.
    public static func render<Output: RenderedOutput>(_ layout: Layout, of graph: FamilyGraph, to output: inout Output) throws {
        func number(_ value: Double) -> JSONValue { .number(Formatting.number(value)) }
        func id(_ member: Int) -> JSONValue { .string(graph.members[member].id) }
        func endpoint(_ endpoint: Layout.Endpoint) -> JSONValue {
            switch endpoint {
            case .member(let member): .object(["member": id(member)])
            case .union(let union): .object(["union": .string(graph.unions[union].id)])
            }
        }
        var writer = ChunkedWriter(output)
        /// `"key": [` records `]` at the top level, each record as `JSONWriter` writes it at depth two.
        func array<Records: Collection>(_ key: String, _ records: Records, last: Bool = false, _ record: (Records.Element) -> JSONValue) throws {
            guard !records.isEmpty else {
                writer.append("  \"\(key)\": []\(last ? "" : ",")\n")
                return
            }
            writer.append("  \"\(key)\": [\n")
            var text = ""
            for (position, element) in records.enumerated() {
                text.removeAll(keepingCapacity: true)
                text += "    "
                JSONWriter.append(record(element), indent: 4, to: &text)
                text += position == records.count - 1 ? "\n" : ",\n"
                writer.append(text)
                try writer.flushIfFull()
            }
            writer.append("  ]\(last ? "" : ",")\n")
        }
        writer.append("{\n  \"direction\": \"\(layout.direction.rawValue)\",\n")
        try array("edges", layout.edges) { edge in
            .object(["kind": .string(edge.kind.rawValue), "from": endpoint(edge.from), "to": endpoint(edge.to),
                     "points": .array(edge.points.map { .array([number($0.x), number($0.y)]) })])
        }
        writer.append("  \"height\": \(Formatting.number(layout.height)),\n  \"layerCount\": \(layout.layerCount),\n")
        try array("members", layout.boxes) { box in
            .object(["id": id(box.member), "x": number(box.x), "y": number(box.y), "width": number(box.width),
                     "height": number(box.height), "layer": .number(String(box.layer))])
        }
        try array("unions", layout.unions) { union in
            .object(["id": .string(graph.unions[union.union].id), "partners": .array(union.partners.map(id)),
                     "children": .array(union.children.map(id)), "x": number(union.x), "y": number(union.y)])
        }
        writer.append("  \"width\": \(Formatting.number(layout.width))\n}\n")
        try writer.flush()
        output = writer.output
    }
}
