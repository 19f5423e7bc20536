import FamilyTree
import Foundation

/// Where an XML document breaks the rules, and how.
struct XMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line the fault is on (1-based).
    var line: Int
    /// What is wrong, in words.
    var reason: String

    var description: String { "line \(line): \(reason)" }
}

/// What an XML document says, as `XMLPushParser` reads it: elements by namespace and local name,
/// and their text (in pieces; a handler joins them).
protocol XMLContentHandler {
    mutating func startElement(namespace: String, name: String)
    mutating func endElement(namespace: String, name: String)
    mutating func characters(_ text: String)
}

/// A streaming XML 1.0 parser with namespaces, for documents from the network: bytes go in as they
/// arrive (`feed`), and every fault is an `XMLSyntaxError`, never a trap.
///
/// Foundation's `XMLParser` traps on an element name that is not UTF-8, refuses a valid answer
/// over about 10 MB, and takes the whole document at once; the XML packages familytree may depend
/// on wrap it. This one reads what a WebDAV answer holds: elements, attributes, namespace
/// declarations, text, character and the five predefined entity references, CDATA, comments and
/// processing instructions. A DOCTYPE is refused (an answer has no use for one, and its entities
/// could expand without limit), as is any encoding but UTF-8.
struct XMLPushParser<Handler: XMLContentHandler> {
    /// Bounds on what one document may hold, so a hostile one costs little.
    struct Limits {
        /// Elements open at once.
        var depth = 256
        /// One tag, comment or processing instruction, in bytes.
        var markupBytes = 1 << 20
        /// One run of text (a card with its photo is one run), in bytes.
        var textBytes = 64 << 20
    }

    private(set) var handler: Handler
    private let limits: Limits

    private var buffer: [UInt8] = []
    /// The first byte of `buffer` not read yet.
    private var position = 0
    /// Where the search for the end of the markup at `position` goes on when more bytes come.
    private var searchFrom = 0
    private var line = 1
    private var atStart = true
    /// Whether anything but a byte-order mark has been read (an XML declaration must come first).
    private var readAnything = false
    private var sawRoot = false
    /// Open elements: their qualified names and how many namespace bindings each declared.
    private var open: [(qualifiedName: [UInt8], bindings: Int)] = []
    /// Namespace bindings in scope, innermost last; the empty prefix is the default namespace.
    private var bindings: [(prefix: [UInt8], namespace: String)] = [(Array("xml".utf8), "http://www.w3.org/XML/1998/namespace")]
    /// Text read since the last markup, entity references not yet replaced.
    private var text: [UInt8] = []
    private var textLine = 1

    init(handler: Handler, limits: Limits = Limits()) {
        self.handler = handler
        self.limits = limits
    }

    /// Reads `bytes`, the next part of the document.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(XMLSyntaxError) {
        buffer.append(contentsOf: bytes)
        try readAvailable(final: false)
        // Drop what was read, but not byte by byte: a long token may wait across many feeds.
        if position > 65_536 || position == buffer.count {
            buffer.removeFirst(position)
            searchFrom -= position
            position = 0
        }
    }

    /// Ends the document: it must be whole (one root element, closed).
    mutating func finish() throws(XMLSyntaxError) {
        try readAvailable(final: true)
        try flushText()
        if let element = open.last {
            throw fault("the document ends inside <\(XMLBytes.string(element.qualifiedName))> (it was cut off)")
        }
        guard sawRoot else { throw fault("the document has no element") }
    }

    // MARK: Tokens

    private mutating func readAvailable(final: Bool) throws(XMLSyntaxError) {
        if atStart {
            guard buffer.count >= 4 || final else { return }
            try readStart()
        }
        while position < buffer.count {
            if buffer[position] != UInt8(ascii: "<") {
                let end = buffer[position...].firstIndex(of: UInt8(ascii: "<")) ?? buffer.count
                if text.isEmpty { textLine = line }
                guard text.count + (end - position) <= limits.textBytes else {
                    throw fault("a text over \(limits.textBytes >> 20) MiB")
                }
                text.append(contentsOf: buffer[position..<end])
                readAnything = true
                countLines(position..<end)
                position = end
                continue
            }
            guard try readMarkup(final: final) else {
                if final { throw fault("the document ends inside a tag (it was cut off)") }
                return
            }
        }
    }

    /// A byte-order mark or a declared encoding other than UTF-8 is refused at the start.
    private mutating func readStart() throws(XMLSyntaxError) {
        atStart = false
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
            position = 3
            searchFrom = 3
        } else if buffer.starts(with: [0xFE, 0xFF]) || buffer.starts(with: [0xFF, 0xFE]) || buffer.starts(with: [0, 0x3C]) || buffer.starts(with: [0x3C, 0]) {
            throw fault("the document is UTF-16; only UTF-8 is read")
        }
    }

    /// Reads the markup at `position`; false when its end has not arrived yet.
    private mutating func readMarkup(final: Bool) throws(XMLSyntaxError) -> Bool {
        let available = buffer.count - position
        func starts(_ prefix: String) -> Bool? {
            let bytes = Array(prefix.utf8)
            let count = min(bytes.count, available)
            guard buffer[position..<position + count].elementsEqual(bytes[..<count]) else { return false }
            return count == bytes.count ? true : nil
        }
        // Which markup it is may need a few more bytes.
        for (prefix, kind) in [("<!--", Markup.comment), ("<![CDATA[", .cdata), ("<?", .instruction), ("</", .endTag)] {
            guard let matched = starts(prefix) else {
                if final { throw fault("the document ends inside a tag (it was cut off)") }
                return false
            }
            if matched { return try read(kind, prefixLength: prefix.utf8.count) }
        }
        if available >= 2 && buffer[position + 1] == UInt8(ascii: "!") {
            // Which fault it is may need more bytes too: the answer must not depend on the pieces.
            guard let isDoctype = starts("<!DOCTYPE") else {
                if final { throw fault("the document ends inside a tag (it was cut off)") }
                return false
            }
            throw fault(isDoctype ? "a DOCTYPE, which an answer must not have" : "markup that is not XML (<!)")
        }
        if available < 2 {
            if final { throw fault("the document ends inside a tag (it was cut off)") }
            return false
        }
        return try read(.startTag, prefixLength: 1)
    }

    private enum Markup {
        case comment, cdata, instruction, endTag, startTag

        var terminator: [UInt8] {
            switch self {
            case .comment: Array("-->".utf8)
            case .cdata: Array("]]>".utf8)
            case .instruction: Array("?>".utf8)
            case .endTag, .startTag: [UInt8(ascii: ">")]
            }
        }
    }

    private mutating func read(_ kind: Markup, prefixLength: Int) throws(XMLSyntaxError) -> Bool {
        let bodyStart = position + prefixLength
        guard let bodyEnd = findEnd(of: kind, from: max(searchFrom, bodyStart)) else {
            let limit = kind == .cdata ? limits.textBytes : limits.markupBytes
            guard buffer.count - position <= limit else { throw fault("a tag over \(limit >> 20) MiB") }
            return false
        }
        let body = buffer[bodyStart..<bodyEnd]
        let end = bodyEnd + kind.terminator.count
        switch kind {
        case .comment:
            guard !body.elementsEqual("-".utf8) && !body.suffix(1).elementsEqual("-".utf8) && !Self.contains(body, "--") else {
                throw fault("a comment with -- inside it")
            }
        case .instruction:
            try readInstruction(body)
        case .cdata:
            guard !open.isEmpty else { throw fault("CDATA outside the root element") }
            try flushText()
            guard body.count <= limits.textBytes else { throw fault("a text over \(limits.textBytes >> 20) MiB") }
            handler.characters(try checkedText(body))
        case .endTag:
            try flushText()
            try readEndTag(body)
        case .startTag:
            try flushText()
            try readStartTag(body)
        }
        countLines(position..<end)
        position = end
        searchFrom = end
        readAnything = true
        return true
    }

    /// The index of `kind`'s terminator at or after `start`, outside quotes in a start tag.
    private mutating func findEnd(of kind: Markup, from start: Int) -> Int? {
        let terminator = kind.terminator
        if kind == .startTag {
            // Quotes matter here: `>` may stand in an attribute's value. The tag is read whole
            // from its start each time (it is short: `markupBytes` at most).
            var quote: UInt8?
            var index = position + 1
            while index < buffer.count {
                let byte = buffer[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return index
                }
                index += 1
            }
            return nil
        }
        var index = start
        while index + terminator.count <= buffer.count {
            if buffer[index] == terminator[0] && buffer[index..<index + terminator.count].elementsEqual(terminator) { return index }
            index += 1
        }
        // Next time, start where a terminator could still begin.
        searchFrom = max(start, buffer.count - terminator.count + 1)
        return nil
    }

    private mutating func readInstruction(_ body: ArraySlice<UInt8>) throws(XMLSyntaxError) {
        let target = body.prefix { !XMLBytes.isSpace($0) }
        guard !target.isEmpty else { throw fault("a processing instruction without a name") }
        guard target.elementsEqual("xml".utf8) else { return }
        guard !readAnything else {
            throw fault("an XML declaration that is not at the start")
        }
        let declaration = try checkedText(body)
        if let range = declaration.range(of: "encoding") {
            let value = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }.prefix { $0 != "\"" && $0 != "'" }
            guard ["utf-8", "utf8", "us-ascii"].contains(value.lowercased()) else {
                throw fault("the document declares the encoding \(XMLBytes.quoted(String(value))); only UTF-8 is read")
            }
        }
    }

    private mutating func readStartTag(_ body: ArraySlice<UInt8>) throws(XMLSyntaxError) {
        var index = body.startIndex
        var end = body.endIndex
        let selfClosing = end > index && body[end - 1] == UInt8(ascii: "/")
        if selfClosing { end -= 1 }
        let name = try readName(body, from: &index, end: end)
        if open.isEmpty && sawRoot { throw fault("a second root element <\(XMLBytes.string(name))>") }
        guard open.count < limits.depth else { throw fault("elements nested over \(limits.depth) deep") }
        var attributes: [(name: ArraySlice<UInt8>, value: String)] = []
        while index < end {
            guard XMLBytes.isSpace(body[index]) else { throw fault("<\(XMLBytes.string(name))> has an attribute not set off by a space") }
            while index < end && XMLBytes.isSpace(body[index]) { index += 1 }
            guard index < end else { break }
            let attribute = try readName(body, from: &index, end: end)
            while index < end && XMLBytes.isSpace(body[index]) { index += 1 }
            guard index < end, body[index] == UInt8(ascii: "=") else { throw fault("the attribute \(XMLBytes.string(attribute)) has no value") }
            index += 1
            while index < end && XMLBytes.isSpace(body[index]) { index += 1 }
            guard index < end, body[index] == UInt8(ascii: "\"") || body[index] == UInt8(ascii: "'") else {
                throw fault("the value of \(XMLBytes.string(attribute)) is not in quotes")
            }
            let quote = body[index]
            let valueStart = index + 1
            guard let valueEnd = body[valueStart..<end].firstIndex(of: quote) else { throw fault("the value of \(XMLBytes.string(attribute)) has no closing quote") }
            let raw = body[valueStart..<valueEnd]
            guard !raw.contains(UInt8(ascii: "<")) else { throw fault("a < in the value of \(XMLBytes.string(attribute))") }
            guard !attributes.contains(where: { $0.name.elementsEqual(attribute) }) else { throw fault("<\(XMLBytes.string(name))> has \(XMLBytes.string(attribute)) twice") }
            attributes.append((attribute, try decoded(raw)))
            index = valueEnd + 1
        }
        // Namespace declarations first: they apply to the element's own name and attributes.
        var declared = 0
        for (attribute, value) in attributes {
            let prefix: [UInt8]
            if attribute.elementsEqual("xmlns".utf8) {
                prefix = []
            } else if attribute.starts(with: "xmlns:".utf8) {
                prefix = Array(attribute.dropFirst(6))
                guard !value.isEmpty else { throw fault("the prefix \(XMLBytes.string(prefix)) is bound to no namespace") }
                guard !prefix.elementsEqual("xmlns".utf8) else { throw fault("the prefix xmlns cannot be declared") }
            } else {
                continue
            }
            bindings.append((prefix, value))
            declared += 1
        }
        for (attribute, _) in attributes where !attribute.starts(with: "xmlns".utf8) && attribute.contains(UInt8(ascii: ":")) {
            _ = try resolve(attribute, isElement: false)
        }
        let (namespace, local) = try resolve(name, isElement: true)
        sawRoot = true
        open.append((Array(name), declared))
        handler.startElement(namespace: namespace, name: local)
        if selfClosing { closeElement(namespace: namespace, name: local) }
    }

    private mutating func readEndTag(_ body: ArraySlice<UInt8>) throws(XMLSyntaxError) {
        var index = body.startIndex
        let name = try readName(body, from: &index, end: body.endIndex)
        guard body[index...].allSatisfy(XMLBytes.isSpace) else { throw fault("</\(XMLBytes.string(name))> holds more than a name") }
        guard let element = open.last else { throw fault("</\(XMLBytes.string(name))> closes nothing") }
        guard element.qualifiedName.elementsEqual(name) else {
            throw fault("</\(XMLBytes.string(name))> where </\(XMLBytes.string(element.qualifiedName))> was due")
        }
        let (namespace, local) = try resolve(name, isElement: true)
        closeElement(namespace: namespace, name: local)
    }

    private mutating func closeElement(namespace: String, name: String) {
        let element = open.removeLast()
        handler.endElement(namespace: namespace, name: name)
        bindings.removeLast(element.bindings)
    }

    /// A name at `index` (advanced past it): ASCII name characters or any UTF-8 beyond ASCII.
    private func readName(_ body: ArraySlice<UInt8>, from index: inout Int, end: Int) throws(XMLSyntaxError) -> ArraySlice<UInt8> {
        let start = index
        while index < end, XMLBytes.isNameByte(body[index]) { index += 1 }
        let name = body[start..<index]
        guard let first = name.first else {
            throw fault(index < end ? "a name cannot start with \(XMLBytes.quoted(XMLBytes.string(body[index..<index + 1])))" : "a tag without a name")
        }
        guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), first != UInt8(ascii: "-"), first != UInt8(ascii: ".") else {
            throw fault("a name cannot start with \(XMLBytes.quoted(XMLBytes.string([first])))")
        }
        guard name.count <= 1024 else { throw fault("a name over 1,024 bytes") }
        guard String(validating: name, as: UTF8.self) != nil else { throw fault("a name that is not UTF-8") }
        return name
    }

    /// A qualified name's namespace and local name.
    private func resolve(_ name: ArraySlice<UInt8>, isElement: Bool) throws(XMLSyntaxError) -> (String, String) {
        let parts = name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        let prefix: ArraySlice<UInt8>, local: ArraySlice<UInt8>
        switch parts.count {
        case 1: (prefix, local) = ([], parts[0])
        case 2: (prefix, local) = (parts[0], parts[1])
        default: throw fault("the name \(XMLBytes.string(name)) has more than one colon")
        }
        guard !local.isEmpty, parts.count == 1 || !prefix.isEmpty else { throw fault("the name \(XMLBytes.string(name)) has an empty part") }
        if prefix.isEmpty && !isElement { return ("", XMLBytes.string(local)) }
        guard let binding = bindings.last(where: { $0.prefix.elementsEqual(prefix) }) else {
            if prefix.isEmpty { return ("", XMLBytes.string(local)) }
            throw fault("the prefix \(XMLBytes.string(prefix)) is not declared")
        }
        return (binding.namespace, XMLBytes.string(local))
    }

    // MARK: Text

    private mutating func flushText() throws(XMLSyntaxError) {
        guard !text.isEmpty else { return }
        defer { text.removeAll(keepingCapacity: text.count < 65_536) }
        if open.isEmpty {
            guard text.allSatisfy(XMLBytes.isSpace) else {
                line = textLine
                throw fault(sawRoot ? "text after the root element" : "text before the root element")
            }
            return
        }
        let value: String
        do { value = try decoded(text[...]) } catch {
            throw XMLSyntaxError(line: textLine, reason: error.reason)
        }
        handler.characters(value)
    }

    /// `raw` with its entity and character references replaced.
    private func decoded(_ raw: ArraySlice<UInt8>) throws(XMLSyntaxError) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return try checkedText(raw) }
        var result = ""
        var index = raw.startIndex
        var runStart = index
        while let ampersand = raw[index...].firstIndex(of: UInt8(ascii: "&")) {
            result += try checkedText(raw[runStart..<ampersand])
            guard let semicolon = raw[ampersand...].prefix(40).firstIndex(of: UInt8(ascii: ";")) else {
                throw fault("an & that starts no reference (write &amp;)")
            }
            let reference = XMLBytes.string(raw[(ampersand + 1)..<semicolon])
            switch reference {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let isHex = reference.hasPrefix("#x")
                let digits = reference.dropFirst(isHex ? 2 : 1)
                guard reference.hasPrefix("#"), !digits.isEmpty, digits.allSatisfy(\.isHexDigit),
                      let code = UInt32(digits, radix: isHex ? 16 : 10),
                      let scalar = Unicode.Scalar(code), SafeText.isXMLCharacter(scalar)
                else { throw fault("an unknown reference &\(XMLBytes.string(reference.utf8.prefix(38)));") }
                result.unicodeScalars.append(scalar)
            }
            index = semicolon + 1
            runStart = index
        }
        result += try checkedText(raw[runStart...])
        return result
    }

    /// `bytes` as text: UTF-8, with no control character XML forbids, and its line ends (CR LF,
    /// CR) read as line feeds, as XML reads them.
    private func checkedText(_ bytes: ArraySlice<UInt8>) throws(XMLSyntaxError) -> String {
        if let control = bytes.first(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            throw fault("the control character \(control) (XML allows none but tab and line ends)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw fault("bytes that are not UTF-8") }
        guard bytes.contains(0x0D) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard bytes.count >= needle.count else { return false }
        return (bytes.startIndex...(bytes.endIndex - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    // MARK: Characters

    private mutating func countLines(_ range: Range<Int>) {
        for byte in buffer[range] where byte == 0x0A { line += 1 }
    }

    private func fault(_ reason: String) -> XMLSyntaxError { XMLSyntaxError(line: line, reason: reason) }
}

/// The byte classes and message text the parser needs.
private enum XMLBytes {
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            true
        default:
            false
        }
    }

    /// Bytes for a message: invalid UTF-8 shown as U+FFFD, no control or direction character,
    /// at most 80 characters.
    static func string(_ bytes: some Collection<UInt8>) -> String {
        let text = SafeText.terminalSafe(String(decoding: bytes.prefix(320), as: UTF8.self))
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }

    static func quoted(_ text: String) -> String { "\"" + SafeText.terminalSafe(text) + "\"" }
}
