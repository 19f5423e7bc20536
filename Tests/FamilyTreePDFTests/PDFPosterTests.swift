#if PDF
import Foundation
import Testing
import TestSupport
@testable import FamilyTreePDF

/// The PDF of a chart's SVG: its pages planned, blank sheets left out, the bytes the same each time.
@Suite struct PDFPosterTests {
    /// A 2,000 x 2,000 pixel chart with one box at its top left and nothing anywhere else.
    let sparse = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 2000" width="100%">
        <rect width="2000" height="2000" fill="#ffffff"/><rect x="20" y="20" width="120" height="48" fill="#e8f1fb" stroke="#5b6b8c"/>
        <text x="30" y="50" font-size="13">Ada &amp; &lt;Byrne&gt;</text></svg>
        """.utf8)

    func pages(_ pdf: [UInt8]) throws -> Int {
        let folder = try ScratchFolder("pdf")
        let file = folder.path("chart.pdf")
        try Data(pdf).write(to: file)
        let info = try ChildProcess.run("pdfinfo", [file.path])
        return Int(info.stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") }?.split(separator: " ").last ?? "") ?? -1
    }

    @Test func aPosterIsPlannedInSheetsWithOverlap() throws {
        var poster = PDFPoster()
        poster.paper = .a4
        poster.tiled = true
        // 2,000 px at 0.75 pt = 1,500 pt; an A4 portrait sheet prints 538.6 x 785.2 pt less 28.35 overlap.
        let plan = try poster.plan(width: 2_000, height: 2_000)
        #expect(plan.pageWidth == 595.28 && plan.columns == 3 && plan.rows == 2 && plan.pageCount == 7)
        poster.orientation = .landscape
        #expect(try poster.plan(width: 2_000, height: 2_000).pageWidth == 841.89)
        poster.scale = 0.05
        #expect(try poster.plan(width: 2_000, height: 2_000).pageCount == 1, "one sheet needs no map")
        poster.scale = 10
        // 20,000 px square at ten times: hundreds of sheets across and down.
        #expect(throws: PDFError.self) { _ = try poster.plan(width: 20_000, height: 20_000) }
        #expect(PDFPoster.sheetName(row: 0, column: 0) == "A1" && PDFPoster.sheetName(row: 26, column: 11) == "AA12")
    }

    @Test func blankSheetsAreLeftOutAndCrossedOutOnTheMap() throws {
        var poster = PDFPoster()
        poster.paper = .a4
        poster.tiled = true
        poster.date = "2026-11-25"
        let pdf = try poster.render(svg: sparse)
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        // The map and the one sheet with the box; the other five are blank.
        #expect(try pages(pdf) == 2)
        #expect(try poster.render(svg: sparse) == pdf, "the same bytes each time")
    }

    @Test func aTitleIsOneLine() {
        #expect(PDFPoster.oneLine("Ann) \\ (b\n</script>\tQ") == "Ann) \\ (b </script> Q")
    }

    @Test func notAnSVGIsAClearError() {
        #expect(throws: PDFError.self) { try PDFPoster().render(svg: Array("<html>".utf8)) }
        #expect(throws: PDFError.self) { try PDFPoster().render(svg: Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#.utf8)) }
    }
}
#endif
