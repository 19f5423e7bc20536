import Testing
@testable import FamilyTree

/// The legacy single-byte encodings of old GEDCOM files and vCard 2.1 cards.
@Suite struct TextDecodingTests {
    /// Every byte value, once, in order.
    static let everyByte = (0...255).map { UInt8($0) }

    @Test func latin1IsEveryByteAsItsOwnCodePoint() {
        let text = TextDecoding.latin1(Self.everyByte)
        #expect(text.unicodeScalars.map(\.value) == (0...255).map { UInt32($0) })
    }

    @Test func windows1252MapsToTypographicMarksTheBytesLatin1LeavesToControlCharacters() {
        let scalars = TextDecoding.windows1252(Self.everyByte).unicodeScalars.map(\.value)
        #expect(scalars.count == 256)
        // ASCII and 0xA0-0xFF are ISO-8859-1.
        #expect(Array(scalars[0..<0x80]) == (0..<0x80).map { UInt32($0) })
        #expect(Array(scalars[0xA0...]) == (0xA0...0xFF).map { UInt32($0) })
        // 0x80-0x9F: typographic marks; the five bytes the code page leaves undefined are U+FFFD.
        #expect(scalars[0x80] == 0x20AC)
        #expect(scalars[0x85] == 0x2026)
        #expect(scalars[0x93] == 0x201C)
        #expect(scalars[0x9F] == 0x0178)
        #expect([0x81, 0x8D, 0x8F, 0x90, 0x9D].allSatisfy { scalars[$0] == 0xFFFD })
    }

    @Test func aWholeLegacyLineDecodesAsWritten() {
        // "Ève “Müller” – 1852" in Windows-1252, the way an old Family Tree Maker export writes it.
        let bytes: [UInt8] = [0xC8, 0x76, 0x65, 0x20, 0x93, 0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72, 0x94, 0x20, 0x96, 0x20, 0x31, 0x38, 0x35, 0x32]
        #expect(TextDecoding.windows1252(bytes) == "Ève “Müller” – 1852")
        #expect(TextDecoding.utf8OrWindows1252(bytes) == "Ève “Müller” – 1852")
        #expect(TextDecoding.utf8OrWindows1252(Array("Ève “Müller”".utf8)) == "Ève “Müller”")
        #expect(TextDecoding.windows1252([]) == "" && TextDecoding.latin1([]) == "")
    }
}
