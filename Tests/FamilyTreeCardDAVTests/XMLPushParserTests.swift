import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import FamilyTreeCardDAV

/// Every event, as text, for comparing parsers.
struct EventLog: XMLContentHandler {
    var events: [String] = []
    private var text = ""

    mutating func startElement(namespace: String, name: String) {
        flush()
        events.append("<{\(namespace)}\(name)>")
    }

    mutating func endElement(namespace: String, name: String) {
        flush()
        events.append("</{\(namespace)}\(name)>")
    }

    mutating func characters(_ text: String) { self.text += text }

    private mutating func flush() {
        if !text.isEmpty { events.append("text(\(text))") }
        text = ""
    }
}

/// Parses `document` fed in pieces of `chunk` bytes.
func parse(_ document: some Collection<UInt8>, chunk: Int = .max) throws(XMLSyntaxError) -> [String] {
    var parser = XMLPushParser(handler: EventLog())
    var rest = Array(document)[...]
    repeat {
        let piece = rest.prefix(chunk)
        rest = rest.dropFirst(piece.count)
        try parser.feed(piece)
    } while !rest.isEmpty
    try parser.finish()
    return parser.handler.events
}

func parse(_ document: String, chunk: Int = .max) throws(XMLSyntaxError) -> [String] { try parse(Array(document.utf8), chunk: chunk) }

/// The same events from Foundation's parser, for documents it can read without trapping.
final class FoundationLog: NSObject, XMLParserDelegate {
    var events: [String] = []
    private var text = ""
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        flush()
        events.append("<{\(namespaceURI ?? "")}\(name)>")
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        flush()
        events.append("</{\(namespaceURI ?? "")}\(name)>")
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }
    private func flush() {
        if !text.isEmpty { events.append("text(\(text))") }
        text = ""
    }
}

struct XMLPushParserTests {
    static let wellFormed = [
        #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/a/b.vcf</d:href></d:response></d:multistatus>"#,
        "\u{FEFF}<a xmlns=\"urn:x\"><b xmlns=\"\"/><c:d xmlns:c='urn:c' c:attr=\"1 &gt; 0\">x &lt; y &amp; &#233;&#x1F600; 'q' &quot;</c:d></a>",
        "<!-- before --><root><![CDATA[<not> & markup]]>after<?pi data?><!-- inside - still --></root>\n<!-- after -->\n",
        "<r attr='a \"quoted\" > value'>\r\n  text over\r\n  lines\r\n</r>",
        "<x:r xmlns:x=\"urn:1\"><x:s xmlns:x=\"urn:2\"/><x:t/></x:r>",
        "<r>Müller · 山田 · 🧬</r>",
    ]

    @Test(arguments: wellFormed)
    func wellFormedDocumentsGiveFoundationsEventsInAnyChunking(document: String) throws {
        let foundation = FoundationLog()
        let parser = XMLParser(data: Data(document.utf8))
        parser.shouldProcessNamespaces = true
        parser.delegate = foundation
        #expect(parser.parse())
        let whole = try parse(document)
        #expect(whole == foundation.events)
        for chunk in [1, 2, 3, 7, 64] {
            #expect(try parse(document, chunk: chunk) == whole, "fed \(chunk) bytes at a time")
        }
    }

    static let malformed: [(String, String)] = [
        ("<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a", "line 1: the document ends inside <d:href> (it was cut off)"),
        ("<a><b></a>", "line 1: </a> where </b> was due"),
        ("<a>\n\n<b", "line 3: the document ends inside a tag (it was cut off)"),
        ("<a/><b/>", "line 1: a second root element <b>"),
        ("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "line 1: a DOCTYPE, which an answer must not have"),
        ("<a>&x;</a>", "line 1: an unknown reference &x;"),
        ("<a>&#0;</a>", "line 1: an unknown reference &#0;"),
        ("<a>&#xD800;</a>", "line 1: an unknown reference &#xD800;"),
        ("<a>&#99999999999;</a>", "line 1: an unknown reference &#99999999999;"),
        ("<a>AT&T</a>", "line 1: an & that starts no reference (write &amp;)"),
        ("<p:a/>", "line 1: the prefix p is not declared"),
        ("<a b='1' b='2'/>", "line 1: <a> has b twice"),
        ("<a b=1/>", "line 1: the value of b is not in quotes"),
        ("<a b='<'/>", "line 1: a < in the value of b"),
        ("<a>\u{1B}[31m</a>", "line 1: the control character 27 (XML allows none but tab and line ends)"),
        ("text<a/>", "line 1: text before the root element"),
        ("<a/>text", "line 1: text after the root element"),
        ("", "line 1: the document has no element"),
        ("<a><?xml version=\"1.0\"?></a>", "line 1: an XML declaration that is not at the start"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", "line 1: the document declares the encoding \"ISO-8859-1\"; only UTF-8 is read"),
        ("<1a/>", "line 1: a name cannot start with \"1\""),
        ("<a:b:c xmlns:a='u'/>", "line 1: the name a:b:c has more than one colon"),
        ("<a></a></a>", "line 1: </a> closes nothing"),
        ("<a><!-- a -- b --></a>", "line 1: a comment with -- inside it"),
        // Found by FuzzCardDAV: read in pieces, "<!D" was taken for a DOCTYPE before its next byte came.
        ("g<!D\u{1}\0\0", "line 1: markup that is not XML (<!)"),
        ("<!DOCTYPX a><a/>", "line 1: markup that is not XML (<!)"),
        ("<!DOC", "line 1: the document ends inside a tag (it was cut off)"),
    ]

    @Test(arguments: malformed)
    func malformedDocumentsFailWithTheirLineAndReason(document: String, message: String) {
        for chunk in [.max, 1, 5] {
            #expect(throws: XMLSyntaxError.self, "fed \(chunk) at a time") { try parse(document, chunk: chunk) }
            do {
                _ = try parse(document, chunk: chunk)
            } catch {
                #expect(error.description == message, "fed \(chunk) at a time")
            }
        }
    }

    /// The byte that crashed Foundation's parser (`<d:respons\xD0e/>`), and others like it, is an error.
    @Test func bytesThatAreNotUTF8AreAnErrorNotATrap() {
        let documents: [[UInt8]] = [
            Array("<d:multistatus xmlns:d=\"DAV:\"><d:respons".utf8) + [0xD0] + Array("e/></d:multistatus>".utf8),
            Array("<a>".utf8) + [0xFF, 0xFE] + Array("</a>".utf8),
            Array("<a b='".utf8) + [0xC3] + Array("'/>".utf8),
            [0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00],
        ]
        let messages = ["line 1: a name that is not UTF-8", "line 1: bytes that are not UTF-8", "line 1: bytes that are not UTF-8", "line 1: the document is UTF-16; only UTF-8 is read"]
        for (document, message) in zip(documents, messages) {
            do {
                _ = try parse(document)
                Issue.record("accepted \(document)")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func limitsBoundDepthTagsAndText() {
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(throws: XMLSyntaxError(line: 1, reason: "elements nested over 256 deep")) { try parse(deep) }
        var small = XMLPushParser(handler: EventLog(), limits: .init(depth: 8, markupBytes: 1 << 20, textBytes: 1 << 20))
        #expect(throws: XMLSyntaxError(line: 1, reason: "a text over 1 MiB")) {
            try small.feed(Array("<a>".utf8))
            try small.feed([UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20))
        }
        var tags = XMLPushParser(handler: EventLog(), limits: .init(depth: 8, markupBytes: 1 << 20, textBytes: 1 << 20))
        #expect(throws: XMLSyntaxError(line: 1, reason: "a tag over 1 MiB")) {
            try tags.feed(Array("<a b='".utf8))
            try tags.feed([UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20))
        }
    }

    /// An answer of many megabytes (the size Foundation's parser refused) reads whole, in pieces.
    @Test func aLargeAnswerReadsInPieces() throws {
        let photo = String(repeating: "QUJD", count: 16_500)
        var document = #"<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">"#
        for index in 0..<160 {
            document += "<d:response><d:href>/b/\(index).vcf</d:href><d:propstat><d:prop><d:getetag>\"\(index)\"</d:getetag>"
            document += "<c:address-data>BEGIN:VCARD\r\nVERSION:3.0\r\nFN:P \(index)\r\nPHOTO;ENCODING=b:\(photo)\r\nEND:VCARD\r\n</c:address-data>"
            document += "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        }
        document += "</d:multistatus>"
        #expect(document.utf8.count > 10_500_000)
        var reading = Multistatus.Reading(from: URL(string: "https://dav.example/b/")!)
        let bytes = Array(document.utf8)
        for start in stride(from: 0, to: bytes.count, by: 16_384) { try reading.feed(bytes[start..<min(start + 16_384, bytes.count)]) }
        let answer = try reading.finish()
        #expect(answer.responses.count == 160)
        #expect(answer.responses[159].properties["address-data"]?.contains(photo) == true)
        #expect(answer.responses[7].properties["getetag"] == "\"7\"")
    }
}
