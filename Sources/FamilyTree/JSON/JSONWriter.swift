/// Writes JSON the way familytree stores files: keys sorted, two-space indent, one trailing newline.
///
/// Sorted keys and a fixed layout keep `git diff` of a tree file small and make output byte-identical
/// across runs and platforms (Foundation's `JSONEncoder` key order varies on Linux).
public enum JSONWriter {
    /// The text of `value`, pretty-printed with sorted keys.
    public static func string(from value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, into: &output)
        output.append("\n")
        return output
    }

    /// `value` pretty-printed as it stands at `indent` spaces inside a larger document (no final
    /// line break), for writers that stream the enclosing arrays themselves.
    package static func append(_ value: JSONValue, indent: Int, to output: inout String) {
        write(value, indent: indent, into: &output)
    }

    /// `text` as a JSON string literal, quotes included, escaped as every familytree file writes it.
    package static func quoted(_ text: String) -> String {
        var output = ""
        appendQuoted(text, into: &output)
        return output
    }

    /// The text of `value` on one line with sorted keys: the canonical body of a synced document.
    public static func compactString(from value: JSONValue) -> String {
        var output = ""
        writeCompact(value, into: &output)
        return output
    }

    private static func writeCompact(_ value: JSONValue, into output: inout String) {
        switch value {
        case .array(let elements):
            output.append("[")
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(",") }
                writeCompact(element, into: &output)
            }
            output.append("]")
        case .object(let fields):
            output.append("{")
            for (position, key) in fields.keys.sorted().enumerated() {
                if position > 0 { output.append(",") }
                appendQuoted(key, into: &output)
                output.append(":")
                writeCompact(fields[key]!, into: &output)
            }
            output.append("}")
        default:
            write(value, indent: 0, into: &output)
        }
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout String) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .number(let literal): output.append(literal)
        case .string(let text): appendQuoted(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output.append("[]"); return }
            output.append("[\n")
            for (position, element) in elements.enumerated() {
                output.append(String(repeating: " ", count: indent + 2))
                write(element, indent: indent + 2, into: &output)
                output.append(position == elements.count - 1 ? "\n" : ",\n")
            }
            output.append(String(repeating: " ", count: indent) + "]")
        case .object(let fields):
            guard !fields.isEmpty else { output.append("{}"); return }
            output.append("{\n")
            let keys = fields.keys.sorted()
            for (position, key) in keys.enumerated() {
                output.append(String(repeating: " ", count: indent + 2))
                appendQuoted(key, into: &output)
                output.append(": ")
                write(fields[key]!, indent: indent + 2, into: &output)
                output.append(position == keys.count - 1 ? "\n" : ",\n")
            }
            output.append(String(repeating: " ", count: indent) + "}")
        }
    }

    private static func appendQuoted(_ text: String, into output: inout String) {
        output.append("\"")
        // Most strings need no escaping: append them whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.append(text)
            output.append("\"")
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output.append("\"")
    }
}
