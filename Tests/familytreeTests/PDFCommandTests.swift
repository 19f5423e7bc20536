#if PDF
import Foundation
import Testing
import TestSupport

/// `render -o chart.pdf` (the PDF trait): text stays text, paper and tiling as asked, hostile names
/// as text, the same bytes for the same chart and day.
@Suite struct PDFCommandTests {
    func text(_ file: URL, page: Int? = nil) throws -> String {
        try ChildProcess.run("pdftotext", (page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []) + [file.path, "-"]).stdout
    }

    func pages(_ file: URL) throws -> Int {
        let info = try ChildProcess.run("pdfinfo", [file.path]).stdout
        return Int(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }?.split(separator: " ").last ?? "") ?? -1
    }

    @Test func aChartIsAPDFWhoseNamesAreText() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("render", tree, "-o", scratch.path("tree.pdf").path, "--today", "2026-11-25") == 0)
        #expect(try pages(scratch.path("tree.pdf")) == 1)
        let words = try text(scratch.path("tree.pdf"))
        #expect(words.contains("Chloé Müller") && words.contains("Tomás Ó Briain"), "\(words)")
        // The same chart on the same day: the same bytes.
        #expect(await scratch.run("render", tree, "-o", scratch.path("again.pdf").path, "--today", "2026-11-25") == 0)
        #expect(try Data(contentsOf: scratch.path("tree.pdf")) == Data(contentsOf: scratch.path("again.pdf")))

        // Twice the size on A4 sheets: a map, then four sheets across, each named and numbered.
        #expect(await scratch.run("render", tree, "-o", scratch.path("poster.pdf").path, "--paper", "a4", "--pages", "--scale", "200", "--orientation", "portrait") == 0)
        #expect(try pages(scratch.path("poster.pdf")) == 5)
        let map = try text(scratch.path("poster.pdf"), page: 1)
        #expect(map.contains("tree (22 people)") && map.contains("4 sheets of A4, 4 across and 1 down"), "\(map)")
        let first = try text(scratch.path("poster.pdf"), page: 2)
        #expect(first.contains("A1 · page 2 of 5 · A2 to the right") && first.contains("Lukas Müller") && !first.contains("Cian"), "\(first)")
        // Fitted onto one sheet of letter paper.
        #expect(await scratch.run("render", tree, "-o", scratch.path("letter.pdf").path, "--paper", "letter") == 0)
        #expect(try ChildProcess.run("pdfinfo", [scratch.path("letter.pdf").path]).stdout.contains("792 x 612 pts (letter)"))
        // A fan chart and an ancestors chart print too.
        #expect(await scratch.run("render", tree, "-o", scratch.path("fan.pdf").path, "--chart", "fan", "Jonas Müller") == 0)
        #expect(try text(scratch.path("fan.pdf")).contains("Jonas Müller"), "the middle's upright name (turned ones come out of pdftotext in pieces)")
    }

    @Test func badPaperChoicesAreRefusedAndWriteNothing() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("render", tree, "-o", scratch.path("a.pdf").path, "--pages") == 2)
        #expect(await scratch.run("render", tree, "-o", scratch.path("b.pdf").path, "--paper", "b5") == 2)
        #expect(await scratch.run("render", tree, "-o", scratch.path("c.svg").path, "--paper", "a4") == 2)
        #expect(await scratch.run("render", tree, "-o", scratch.path("d.pdf").path, "--scale", "0") == 2)
        #expect(try scratch.files() == ["tree.json"], "nothing written")
    }

    @Test func aHostileNameIsTextInThePDF() async throws {
        let scratch = try Scratch()
        try scratch.write("hostile.json", #"{"members": [{"id": "x", "firstName": "</text><script>alert(1)</script>", "lastName": "&amp; \"Co\""}]}"#)
        #expect(await scratch.run("render", scratch.path("hostile.json").path, "-o", scratch.path("hostile.pdf").path) == 0)
        let words = try text(scratch.path("hostile.pdf"))
        #expect(words.contains("</text><script>alert(1)</script>"), "\(words)")
        // As the title of a chart about them: intact, on one line.
        #expect(await scratch.run("render", scratch.path("hostile.json").path, "-o", scratch.path("about.pdf").path, "--chart", "ancestors", "x") == 0)
        let info = try ChildProcess.run("pdfinfo", [scratch.path("about.pdf").path]).stdout
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("Title:") && $0.hasSuffix(#"</text><script>alert(1)</script> &amp; "Co""#) }, "\(info)")
    }
}
#endif
