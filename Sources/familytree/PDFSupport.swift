#if PDF
import FamilyTreePDF
#endif

/// `render -o chart.pdf` when this build has the PDF trait (librsvg and cairo), and a clear error when not.
enum PDFSupport {
    #if PDF
    static let isBuiltIn = true
    #else
    static let isBuiltIn = false
    #endif

    /// The paper sizes `--paper` takes.
    static let paperNames = ["a4", "a3", "a2", "letter", "tabloid"]

    /// What the command line asked of the PDF.
    struct Request {
        var paper: String?
        var orientation: String
        var pages: Bool
        var scale: Double
        var title: String
        /// The chart's day, `YYYY-MM-DD`: the PDF's date, so the same chart gives the same bytes.
        var date: String
    }

    /// The PDF of a chart's SVG; `sheet` writes the SVG of one part of the chart (x, y, width,
    /// height in its units), for the sheets of a poster.
    static func render(svg: [UInt8], _ request: Request, sheet: ((Double, Double, Double, Double) -> [UInt8])? = nil) throws -> [UInt8] {
        #if PDF
        var poster = PDFPoster()
        poster.paper = request.paper.flatMap { name in Paper.allCases.first { $0.name == name } }
        poster.orientation = Orientation(rawValue: request.orientation) ?? .auto
        poster.tiled = request.pages
        poster.scale = request.scale
        poster.title = request.title
        poster.date = request.date
        do {
            return try poster.render(svg: svg, sheet: sheet.map { sheet in { window in sheet(window.x, window.y, window.width, window.height) } })
        } catch {
            throw CLIError.refused(error.description)
        }
        #else
        throw CLIError.refused("this familytree was built without PDF support; build it with --traits PDF (needs librsvg2-dev), or write tree.svg and convert it: rsvg-convert -f pdf tree.svg -o tree.pdf")
        #endif
    }

    static var versionNote: String { isBuiltIn ? "PDF support: built in" : "PDF support: not built in" }
}
