/// Writes JSON the way familytree stores files: keys sorted, two-space indent, one trailing newline.
///
/// Sorted keys and a fixed layout keep `git diff` of a tree file small and make output byte-identical
/// across runs and platforms (Foundation's `JSONEncoder` key order varies on Linux).
public enum JSONWriter {
    /// The text of `value`, pretty-printed with sorted keys.
    public static func string(from value: JSONValue) -> String {
        var output = Output()
        output.write(value, indent: 0)
        output.append("\n")
        return output.text
    }

    /// `text` as a JSON string literal, quotes included, escaped as every familytree file writes it.
    package static func quoted(_ text: String) -> String {
        var output = Output()
        output.appendQuoted(text)
        return output.text
    }

    /// The text of `value` on one line with sorted keys: the canonical body of a synced document.
    public static func compactString(from value: JSONValue) -> String {
        var output = Output()
        output.writeCompact(value)
        return output.text
    }

    /// The text as UTF-8 bytes while it is written: a tree file is written in millions of small
    /// pieces, and appending each to a byte array costs a fraction of appending it to a `String`
    /// (a 100,000-person tree: see `Benchmarks/CommandBenchmark/edit_benchmark.py`).
    private struct Output {
        var bytes: [UInt8] = []

        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func append(_ literal: StaticString) {
            literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        mutating func appendSpaces(_ count: Int) {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
        }

        mutating func writeCompact(_ value: JSONValue) {
            switch value {
            case .array(let elements):
                append("[")
                for (position, element) in elements.enumerated() {
                    if position > 0 { append(",") }
                    writeCompact(element)
                }
                append("]")
            case .object(let fields):
                append("{")
                for (position, key) in fields.keys.sorted().enumerated() {
                    if position > 0 { append(",") }
                    appendQuoted(key)
                    append(":")
                    writeCompact(fields[key]!)
                }
                append("}")
            default:
                write(value, indent: 0)
            }
        }

        mutating func write(_ value: JSONValue, indent: Int) {
            switch value {
            case .null: append("null")
            case .bool(let flag): append(flag ? "true" : "false")
            case .number(let literal): append(literal)
            case .string(let text): appendQuoted(text)
            case .array(let elements):
                guard !elements.isEmpty else { return append("[]") }
                append("[\n")
                for (position, element) in elements.enumerated() {
                    appendSpaces(indent + 2)
                    write(element, indent: indent + 2)
                    append(position == elements.count - 1 ? "\n" : ",\n")
                }
                appendSpaces(indent)
                append("]")
            case .object(let fields):
                guard !fields.isEmpty else { return append("{}") }
                append("{\n")
                let keys = fields.keys.sorted()
                for (position, key) in keys.enumerated() {
                    appendSpaces(indent + 2)
                    appendQuoted(key)
                    append(": ")
                    write(fields[key]!, indent: indent + 2)
                    append(position == keys.count - 1 ? "\n" : ",\n")
                }
                appendSpaces(indent)
                append("}")
            }
        }

        mutating func appendQuoted(_ text: String) {
            append("\"")
            // Most strings need no escaping: append them whole.
            let needsEscaping: (UInt8) -> Bool = { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: needsEscaping) }) ?? text.utf8.contains(where: needsEscaping) else {
                append(text)
                return append("\"")
            }
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": append("\\\"")
                case "\\": append("\\\\")
                case "\n": append("\\n")
                case "\r": append("\\r")
                case "\t": append("\\t")
                case "\u{08}": append("\\b")
                case "\u{0C}": append("\\f")
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    append("\\u")
                    append(String(repeating: "0", count: 4 - hex.count) + hex)
                default: UTF8.encode(scalar) { bytes.append($0) }
                }
            }
            append("\"")
        }
    }
}
