import FamilyTree

/// Turns the bytes of a GEDCOM file into text: from the byte-order mark, else from `HEAD.CHAR`,
/// else UTF-8 if it is valid, else Windows-1252. Never fails: a wrong declaration costs a warning.
enum GEDCOMEncoding {
    struct Decoded {
        var text: String
        /// What was used: "UTF-8", "UTF-16LE", "ANSEL", ...
        var encoding: String
        var warnings: [String]
    }

    static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return utf8OrLegacy(Array(bytes.dropFirst(3)), declared: "UTF-8 (BOM)") }
        if bytes.starts(with: [0xFF, 0xFE]) { return Decoded(text: TextDecoding.utf16(bytes.dropFirst(2), bigEndian: false), encoding: "UTF-16LE", warnings: []) }
        if bytes.starts(with: [0xFE, 0xFF]) { return Decoded(text: TextDecoding.utf16(bytes.dropFirst(2), bigEndian: true), encoding: "UTF-16BE", warnings: []) }
        // UTF-16 without a mark: "0" followed or preceded by a zero byte.
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == 0 { return Decoded(text: TextDecoding.utf16(bytes[...], bigEndian: false), encoding: "UTF-16LE", warnings: []) }
        if bytes.count >= 2, bytes[0] == 0, bytes[1] == UInt8(ascii: "0") { return Decoded(text: TextDecoding.utf16(bytes[...], bigEndian: true), encoding: "UTF-16BE", warnings: []) }
        let declaration = declaredCharacterSet(bytes)
        switch declaration?.uppercased() {
        case "ANSEL":
            // Many files say ANSEL but are 7-bit ASCII or really UTF-8 (royal92 is 7-bit).
            if bytes.allSatisfy({ $0 < 0x80 }) { return Decoded(text: String(decoding: bytes, as: UTF8.self), encoding: "ANSEL (7-bit)", warnings: []) }
            if let utf8 = misdeclaredUTF8(bytes, declared: "ANSEL") { return utf8 }
            return Decoded(text: ansel(bytes), encoding: "ANSEL", warnings: [])
        case "ANSI", "WINDOWS-1252", "CP1252", "IBMPC", "IBM WINDOWS", "MACINTOSH", "ISO-8859-1", "ISO8859-1", "LATIN1", "ASCII":
            if let utf8 = misdeclaredUTF8(bytes, declared: declaration ?? "ANSI") { return utf8 }
            return Decoded(text: TextDecoding.windows1252(bytes), encoding: "Windows-1252", warnings: [])
        case let declared?:
            return utf8OrLegacy(bytes, declared: declared)
        case nil:
            return utf8OrLegacy(bytes, declared: "none")
        }
    }

    /// A file declared in an 8-bit character set that is really UTF-8: it has bytes over 127 and
    /// all of them form valid UTF-8 sequences, which ANSEL and Windows-1252 text practically never
    /// does (ANSEL's marks and Windows-1252's letters stand alone, not as lead and continuation bytes).
    private static func misdeclaredUTF8(_ bytes: [UInt8], declared: String) -> Decoded? {
        guard bytes.contains(where: { $0 >= 0x80 }), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return Decoded(text: text, encoding: "UTF-8", warnings: ["the file declares CHAR \(declared) but is UTF-8; read as UTF-8"])
    }

    private static func utf8OrLegacy(_ bytes: [UInt8], declared: String) -> Decoded {
        if let text = String(validating: bytes, as: UTF8.self) { return Decoded(text: text, encoding: "UTF-8", warnings: []) }
        return Decoded(text: TextDecoding.windows1252(bytes), encoding: "Windows-1252",
                       warnings: ["the file is not valid UTF-8 (declared: \(declared)); read as Windows-1252"])
    }

    /// The value of `1 CHAR` in the header, read as ASCII.
    static func declaredCharacterSet(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(8192).map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        for line in head.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 3, words[0] == "1", words[1].uppercased() == "CHAR" { return words[2...].joined(separator: " ") }
            if words.count >= 2, words[0] == "0", words[1].uppercased() != "HEAD", !words[1].hasPrefix("@") { break }
            if words.count >= 2, words[0] == "0", words[1].hasPrefix("@") { break }
        }
        return nil
    }

    /// ANSEL (ANSI Z39.47 with GEDCOM's additions): combining marks come before the base letter.
    static func ansel(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        var pendingMarks: [UInt32] = []
        func append(_ value: UInt32) {
            UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { output.append($0) }
        }
        for byte in bytes {
            if byte >= 0xE0, let mark = anselCombining[byte] {
                pendingMarks.append(mark)
                continue
            }
            if byte < 0x80 { output.append(byte) } else { append(anselSpecial[byte] ?? 0xFFFD) }
            // In Unicode the marks follow their base letter.
            if !pendingMarks.isEmpty {
                for mark in pendingMarks { append(mark) }
                pendingMarks.removeAll(keepingCapacity: true)
            }
        }
        for mark in pendingMarks { append(mark) }
        return String(decoding: output, as: UTF8.self)
    }

    private static let anselSpecial: [UInt8: UInt32] = [
        0xA1: 0x0141, 0xA2: 0x00D8, 0xA3: 0x0110, 0xA4: 0x00DE, 0xA5: 0x00C6, 0xA6: 0x0152, 0xA7: 0x02B9, 0xA8: 0x00B7,
        0xA9: 0x266D, 0xAA: 0x00AE, 0xAB: 0x00B1, 0xAC: 0x01A0, 0xAD: 0x01AF, 0xAE: 0x02BC, 0xB0: 0x02BB, 0xB1: 0x0142,
        0xB2: 0x00F8, 0xB3: 0x0111, 0xB4: 0x00FE, 0xB5: 0x00E6, 0xB6: 0x0153, 0xB7: 0x02BA, 0xB8: 0x0131, 0xB9: 0x00A3,
        0xBA: 0x00F0, 0xBC: 0x01A1, 0xBD: 0x01B0, 0xBE: 0x25A1, 0xBF: 0x25A0, 0xC0: 0x00B0, 0xC1: 0x2113, 0xC2: 0x2117,
        0xC3: 0x00A9, 0xC4: 0x266F, 0xC5: 0x00BF, 0xC6: 0x00A1, 0xC7: 0x00DF, 0xC8: 0x20AC, 0xCD: 0x0065, 0xCE: 0x006F, 0xCF: 0x00DF,
    ]

    private static let anselCombining: [UInt8: UInt32] = [
        0xE0: 0x0309, 0xE1: 0x0300, 0xE2: 0x0301, 0xE3: 0x0302, 0xE4: 0x0303, 0xE5: 0x0304, 0xE6: 0x0306, 0xE7: 0x0307,
        0xE8: 0x0308, 0xE9: 0x030C, 0xEA: 0x030A, 0xEB: 0xFE20, 0xEC: 0xFE21, 0xED: 0x0315, 0xEE: 0x030B, 0xEF: 0x0310,
        0xF0: 0x0327, 0xF1: 0x0328, 0xF2: 0x0323, 0xF3: 0x0324, 0xF4: 0x0325, 0xF5: 0x0333, 0xF6: 0x0332, 0xF7: 0x0326,
        0xF8: 0x031C, 0xF9: 0x032E, 0xFA: 0xFE22, 0xFB: 0xFE23, 0xFE: 0x0313,
    ]
}
