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
    /// Throws when `layout` was not made of `graph`.
    public static func render(_ layout: Layout, of graph: FamilyGraph) throws(LayoutMismatch) -> String {
        try layout.check(against: graph)
        var output = CollectedOutput()
        // Collecting in memory cannot fail.
        try! render(layout, of: graph, to: &output)
        return output.text
    }

    /// Writes the layout JSON to `output` record by record, in chunks: a million members never sit
    /// in memory as one JSON value. Keys sorted, two-space indent, as every familytree JSON file
    /// (`JSONWriter`'s layout, written here straight to bytes).
    public static func render<Output: RenderedOutput>(_ layout: Layout, of graph: FamilyGraph, to output: inout Output) throws {
        try layout.check(against: graph)
        var writer = ChunkedWriter(output)
        let records = Records(graph: graph)
        writer.append("{\n  \"direction\": \"\(layout.direction.rawValue)\",\n")
        try array("edges", layout.edges, into: &writer) { records.edge($0, into: &$1) }
        writer.append("  \"height\": ")
        writer.appendNumber(layout.height)
        writer.append(",\n  \"layerCount\": \(layout.layerCount),\n")
        try array("members", layout.boxes, into: &writer) { records.member($0, into: &$1) }
        try array("unions", layout.unions, into: &writer) { records.union($0, into: &$1) }
        writer.append("  \"width\": ")
        writer.appendNumber(layout.width)
        writer.append("\n}\n")
        try writer.flush()
        output = writer.output
    }

    /// `"key": [` records `]` at the top level, each record at an indent of four, written on every
    /// core in order (`ChunkedWriter.appendRecords`).
    private static func array<Element: Sendable, Output>(
        _ key: StaticString, _ elements: [Element], into writer: inout ChunkedWriter<Output>,
        _ record: @escaping @Sendable (Element, inout ChunkedWriter<CollectedOutput>) -> Void
    ) throws {
        writer.append("  \"")
        writer.append(key)
        guard !elements.isEmpty else {
            writer.append("\": [],\n")
            return
        }
        writer.append("\": [\n")
        let last = elements.count - 1
        try writer.appendRecords(elements.indices) { index, partWriter in
            record(elements[index], &partWriter)
            partWriter.append(index == last ? "\n" : ",\n")
        }
        writer.append("  ],\n")
    }

    /// One record of each array, written at an indent of four.
    private struct Records: Sendable {
        let graph: FamilyGraph

        func edge(_ edge: Layout.Edge, into writer: inout ChunkedWriter<CollectedOutput>) {
            writer.append("    {\n      \"from\": ")
            endpoint(edge.from, into: &writer)
            writer.append(",\n      \"kind\": ")
            string(edge.kind.rawValue, into: &writer)
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
            endpoint(edge.to, into: &writer)
            writer.append("\n    }")
        }

        func member(_ box: Layout.MemberBox, into writer: inout ChunkedWriter<CollectedOutput>) {
            writer.append("    {\n      \"height\": ")
            writer.appendNumber(box.height)
            writer.append(",\n      \"id\": ")
            string(graph.members[box.member].id, into: &writer)
            writer.append(",\n      \"layer\": \(box.layer),\n      \"width\": ")
            writer.appendNumber(box.width)
            writer.append(",\n      \"x\": ")
            writer.appendNumber(box.x)
            writer.append(",\n      \"y\": ")
            writer.appendNumber(box.y)
            writer.append("\n    }")
        }

        func union(_ union: Layout.UnionPoint, into writer: inout ChunkedWriter<CollectedOutput>) {
            writer.append("    {\n      \"children\": ")
            ids(union.children.map { graph.members[$0].id }, into: &writer)
            writer.append(",\n      \"id\": ")
            string(graph.unions[union.union].id, into: &writer)
            writer.append(",\n      \"partners\": ")
            ids(union.partners.map { graph.members[$0].id }, into: &writer)
            writer.append(",\n      \"x\": ")
            writer.appendNumber(union.x)
            writer.append(",\n      \"y\": ")
            writer.appendNumber(union.y)
            writer.append("\n    }")
        }

        private func string(_ text: String, into writer: inout ChunkedWriter<CollectedOutput>) {
            if text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                writer.append(JSONWriter.quoted(text))
            } else {
                writer.append("\"")
                writer.append(text)
                writer.append("\"")
            }
        }

        /// A list of ids in a record's field: items at an indent of eight.
        private func ids(_ list: [String], into writer: inout ChunkedWriter<CollectedOutput>) {
            guard !list.isEmpty else { writer.append("[]"); return }
            writer.append("[\n")
            for (position, id) in list.enumerated() {
                writer.append("        ")
                string(id, into: &writer)
                writer.append(position == list.count - 1 ? "\n" : ",\n")
            }
            writer.append("      ]")
        }

        private func endpoint(_ endpoint: Layout.Endpoint, into writer: inout ChunkedWriter<CollectedOutput>) {
            switch endpoint {
            case .member(let member):
                writer.append("{\n        \"member\": ")
                string(graph.members[member].id, into: &writer)
            case .union(let union):
                writer.append("{\n        \"union\": ")
                string(graph.unions[union].id, into: &writer)
            }
            writer.append("\n      }")
        }
    }
}
