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
    /// in memory as one JSON value. Keys sorted, two-space indent, as every familytree JSON file
    /// (`JSONWriter`'s layout, written here straight to bytes).
    public static func render<Output: RenderedOutput>(_ layout: Layout, of graph: FamilyGraph, to output: inout Output) throws {
        var writer = ChunkedWriter(output)
        /// `"key": [` records `]` at the top level; each record is written at an indent of four.
        func array<Records: Collection>(_ key: StaticString, _ records: Records, last: Bool = false, _ record: (Records.Element) -> Void) throws {
            writer.append("  \"")
            writer.append(key)
            guard !records.isEmpty else {
                writer.append(last ? "\": []\n" : "\": [],\n")
                return
            }
            writer.append("\": [\n")
            var remaining = records.count
            for element in records {
                record(element)
                remaining -= 1
                writer.append(remaining == 0 ? "\n" : ",\n")
                try writer.flushIfFull()
            }
            writer.append(last ? "  ]\n" : "  ],\n")
        }
        func string(_ text: String) {
            if text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                writer.append(JSONWriter.quoted(text))
            } else {
                writer.append("\"")
                writer.append(text)
                writer.append("\"")
            }
        }
        /// A list of ids at `indent` + 2 (the list's key stands at `indent`).
        func ids(_ list: [String], indent: StaticString, closing: StaticString) {
            guard !list.isEmpty else { writer.append("[]"); return }
            writer.append("[\n")
            for (position, id) in list.enumerated() {
                writer.append(indent)
                string(id)
                writer.append(position == list.count - 1 ? "\n" : ",\n")
            }
            writer.append(closing)
        }
        func endpoint(_ endpoint: Layout.Endpoint) {
            switch endpoint {
            case .member(let member):
                writer.append("{\n        \"member\": ")
                string(graph.members[member].id)
            case .union(let union):
                writer.append("{\n        \"union\": ")
                string(graph.unions[union].id)
            }
            writer.append("\n      }")
        }

        writer.append("{\n  \"direction\": \"\(layout.direction.rawValue)\",\n")
        try array("edges", layout.edges) { edge in
            writer.append("    {\n      \"from\": ")
            endpoint(edge.from)
            writer.append(",\n      \"kind\": ")
            string(edge.kind.rawValue)
            writer.append(",\n      \"points\": ")
            if edge.points.isEmpty {
                writer.append("[]")
            } else {
                writer.append("[\n")
                for (position, point) in edge.points.enumerated() {
                    writer.append("        [\n          ")
                    writer.appendNumber(point.x)
                    writer.append(",\n          ")
                    writer.appendNumber(point.y)
                    writer.append(position == edge.points.count - 1 ? "\n        ]\n" : "\n        ],\n")
                }
                writer.append("      ]")
            }
            writer.append(",\n      \"to\": ")
            endpoint(edge.to)
            writer.append("\n    }")
        }
        writer.append("  \"height\": ")
        writer.appendNumber(layout.height)
        writer.append(",\n  \"layerCount\": \(layout.layerCount),\n")
        try array("members", layout.boxes) { box in
            writer.append("    {\n      \"height\": ")
            writer.appendNumber(box.height)
            writer.append(",\n      \"id\": ")
            string(graph.members[box.member].id)
            writer.append(",\n      \"layer\": \(box.layer),\n      \"width\": ")
            writer.appendNumber(box.width)
            writer.append(",\n      \"x\": ")
            writer.appendNumber(box.x)
            writer.append(",\n      \"y\": ")
            writer.appendNumber(box.y)
            writer.append("\n    }")
        }
        try array("unions", layout.unions, last: false) { union in
            writer.append("    {\n      \"children\": ")
            ids(union.children.map { graph.members[$0].id }, indent: "        ", closing: "      ]")
            writer.append(",\n      \"id\": ")
            string(graph.unions[union.union].id)
            writer.append(",\n      \"partners\": ")
            ids(union.partners.map { graph.members[$0].id }, indent: "        ", closing: "      ]")
            writer.append(",\n      \"x\": ")
            writer.appendNumber(union.x)
            writer.append(",\n      \"y\": ")
            writer.appendNumber(union.y)
            writer.append("\n    }")
        }
        writer.append("  \"width\": ")
        writer.appendNumber(layout.width)
        writer.append("\n}\n")
        try writer.flush()
        output = writer.output
    }
}
