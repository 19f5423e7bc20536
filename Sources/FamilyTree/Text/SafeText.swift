/// User text made safe for the places it is written to: XML and HTML, a terminal, a single-line
/// field of a line-based format. Every writer uses these, so one rule holds everywhere.
package enum SafeText {
    /// Whether XML 1.0 allows `scalar` in a document (tab, line feed and carriage return are the
    /// only control characters it allows; U+FFFE and U+FFFF are never characters).
    package static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// Appends `text` to `buffer` as UTF-8, safe inside XML or HTML character data and inside
    /// single- or double-quoted attributes: markup characters become entities, line breaks and tabs
    /// become spaces (a label is one line), and characters XML forbids are dropped.
    package static func appendXMLEscaped(_ text: String, to buffer: inout [UInt8]) {
        var bytes = text.utf8.makeIterator()
        var pending: UInt8?
        while let byte = pending ?? bytes.next() {
            pending = nil
            switch byte {
            case UInt8(ascii: "&"): buffer.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): buffer.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): buffer.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): buffer.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): buffer.append(contentsOf: "&#39;".utf8)
            case 0x09, 0x0A, 0x0D: buffer.append(UInt8(ascii: " "))
            case 0x00..<0x20: continue
            case 0xEF:
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF in UTF-8.
                guard let second = bytes.next() else { buffer.append(byte); return }
                guard second == 0xBF, let third = bytes.next() else {
                    buffer.append(byte)
                    pending = second
                    continue
                }
                if third == 0xBE || third == 0xBF { continue }
                buffer.append(contentsOf: [byte, second, third])
            default: buffer.append(byte)
            }
        }
    }

    /// `text` escaped as `appendXMLEscaped` does.
    package static func xmlEscaped(_ text: String) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(text.utf8.count)
        appendXMLEscaped(text, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Whether a terminal would act on `scalar` instead of showing it: C0 and C1 control characters
    /// and DEL (an escape sequence starts with ESC or the C1 CSI).
    package static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` as a terminal shows it without acting on it: control characters (ESC, BEL, carriage
    /// return, ...) become visible `\u{1B}` escapes; line breaks stay when `keepingLineBreaks`.
    package static func terminalSafe(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isTerminalControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n", keepingLineBreaks {
                result.unicodeScalars.append(scalar)
            } else if isTerminalControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` on one line: every line break (CR, LF, CRLF, NEL, U+2028, U+2029) and other control
    /// character becomes a space, so the text cannot start a new line or record in a line-based
    /// format (GEDCOM, vCard, iCalendar, CSV rows).
    package static func singleLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: breaksLine) else { return text }
        var result = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if breaksLine(scalar) {
                if !lastWasSpace { result += " " }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                lastWasSpace = scalar == " "
            }
        }
        return result
    }

    /// The lines of `text`, split at CR, LF, CRLF, NEL, U+2028 and U+2029, with other control
    /// characters removed from each (for multi-line fields written as continuation lines).
    package static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            switch scalar.value {
            case 0x0A where previous == "\r": continue
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029:
                lines.append(current)
                current = ""
            case _ where isTerminalControl(scalar) && scalar != "\t": continue
            default: current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    private static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
        isTerminalControl(scalar) && scalar != "\t" || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and line breaks (the white space of GEDCOM lines
    /// and vCard values), checked byte by byte.
    package var trimmingSpaces: String {
        let bytes = utf8
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks; a string with none comes back as it is.
    package var trimmingSpaces: String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return isSpace(first) || isSpace(last) ? self[...].trimmingSpaces : self
    }
}
