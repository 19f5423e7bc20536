/// Decoding of the legacy single-byte text that old GEDCOM files and vCard 2.1 cards still carry.
package enum TextDecoding {
    /// Windows-1252 (a superset of ISO-8859-1 for printable text); bytes it leaves undefined become U+FFFD.
    package static func windows1252(_ bytes: [UInt8]) -> String {
        singleByte(bytes) { byte in (0x80...0x9F).contains(byte) ? windows1252High[Int(byte) - 0x80] : UInt32(byte) }
    }

    /// ISO-8859-1: every byte is the code point of the same number.
    package static func latin1(_ bytes: [UInt8]) -> String {
        singleByte(bytes) { UInt32($0) }
    }

    /// Text of one code point per byte, `codePoint` giving those of bytes 0x80 and up (each in the
    /// Basic Multilingual Plane), written as UTF-8 into one buffer: appending scalar by scalar to a
    /// string took two thirds of a 200 KB GEDCOM file's import.
    private static func singleByte(_ bytes: [UInt8], _ codePoint: (UInt8) -> UInt32) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            guard byte >= 0x80 else {
                utf8.append(byte)
                continue
            }
            let value = codePoint(byte)
            if value < 0x800 {
                utf8.append(0xC0 | UInt8(value >> 6))
            } else {
                utf8.append(0xE0 | UInt8(value >> 12))
                utf8.append(0x80 | UInt8(value >> 6 & 0x3F))
            }
            utf8.append(0x80 | UInt8(value & 0x3F))
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// UTF-16 code units, two bytes each, in the given byte order; an odd last byte is dropped.
    package static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// UTF-8 when the bytes are valid UTF-8, otherwise Windows-1252 (what such text almost always is).
    package static func utf8OrWindows1252(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self) ?? windows1252(bytes)
    }

    /// The code points of bytes 0x80-0x9F in Windows-1252.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]
}

/// A hash of text that is the same on every run and platform (Swift's `Hasher` is seeded per process):
/// for fingerprints and file names, not for security.
package enum StableHash {
    /// 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits.
    package static func fnv1a64(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
