#if PDF
import CRSVG

/// A sheet of paper, in PDF points (1/72 inch), portrait.
public struct Paper: Sendable, Hashable, CaseIterable {
    /// Its name as the command line spells it: `a4`, `letter`.
    public var name: String
    public var width: Double
    public var height: Double

    public static let a4 = Paper(name: "a4", width: 595.28, height: 841.89)
    public static let a3 = Paper(name: "a3", width: 841.89, height: 1190.55)
    public static let a2 = Paper(name: "a2", width: 1190.55, height: 1683.78)
    public static let letter = Paper(name: "letter", width: 612, height: 792)
    public static let tabloid = Paper(name: "tabloid", width: 792, height: 1224)

    public static let allCases: [Paper] = [.a4, .a3, .a2, .letter, .tabloid]
}

/// Which way up a sheet is.
public enum Orientation: String, Sendable, CaseIterable {
    case portrait, landscape
    /// Whichever the chart's shape suits.
    case auto
}

/// A chart's SVG as a PDF: one page the chart's size (for a print shop), the chart fitted onto one
/// sheet, or the chart at its size tiled onto sheets a home printer prints, with a page map first,
/// cut marks, the strips to glue under the next sheet, and each sheet's place and number.
///
/// librsvg draws the SVG onto cairo's PDF surface, so names stay text (searchable and selectable)
/// and lines stay lines, however far one zooms. A chart pixel is 0.75 pt (96 to the inch) at
/// `scale` 1.
public struct PDFPoster: Sendable {
    /// The sheet; `nil` for one page as large as the chart.
    public var paper: Paper?
    public var orientation: Orientation = .auto
    /// With `paper`: the chart at `scale` on as many sheets as it takes (`true`), or shrunk onto one.
    public var tiled = false
    /// The chart's size on paper: 1 is 96 chart pixels to the inch, the size it has on a screen.
    public var scale = 1.0
    /// The unprinted edge of each sheet, where the marks and the page's name go (1 cm).
    public var margin = 28.35
    /// How far neighbouring sheets overlap, to glue one under the other (1 cm).
    public var overlap = 28.35
    /// The document's title (its metadata, and the page map's heading).
    public var title = "Family tree"
    /// The creation date written into the PDF, `YYYY-MM-DD` (a fixed one gives the same bytes
    /// for the same chart); `nil` leaves cairo's own (now).
    public var date: String?
    /// The most sheets a tiled poster may take.
    public static let maximumPages = 2_000

    public init() {}

    /// How a chart of `width` x `height` chart pixels goes onto pages.
    public struct Plan: Sendable, Hashable {
        /// Each page's size in points.
        public var pageWidth: Double
        public var pageHeight: Double
        /// Points per chart pixel.
        public var points: Double
        /// Sheets across and down (1 x 1 for one page).
        public var columns: Int
        public var rows: Int
        /// Whether a page map comes first.
        public var hasMap: Bool

        /// Every page, the map counted.
        public var pageCount: Int { columns * rows + (hasMap ? 1 : 0) }
    }

    /// The pages for a chart of `width` x `height` chart pixels.
    public func plan(width: Double, height: Double) throws(PDFError) -> Plan {
        let width = max(width, 1), height = max(height, 1)
        guard let paper else {
            let points = 0.75 * scale
            return Plan(pageWidth: width * points + 2 * margin, pageHeight: height * points + 2 * margin, points: points, columns: 1, rows: 1, hasMap: false)
        }
        let landscape = orientation == .landscape || (orientation == .auto && width > height)
        let (pageWidth, pageHeight) = landscape ? (paper.height, paper.width) : (paper.width, paper.height)
        let printableWidth = pageWidth - 2 * margin, printableHeight = pageHeight - 2 * margin
        guard tiled else {
            let points = min(printableWidth / width, printableHeight / height)
            return Plan(pageWidth: pageWidth, pageHeight: pageHeight, points: points, columns: 1, rows: 1, hasMap: false)
        }
        let points = 0.75 * scale
        let stepWidth = printableWidth - overlap, stepHeight = printableHeight - overlap
        let columns = max(1, Int(((width * points - overlap) / stepWidth).rounded(.up)))
        let rows = max(1, Int(((height * points - overlap) / stepHeight).rounded(.up)))
        let plan = Plan(pageWidth: pageWidth, pageHeight: pageHeight, points: points, columns: columns, rows: rows, hasMap: columns * rows > 1)
        guard plan.pageCount <= Self.maximumPages else { throw .tooManyPages(plan.pageCount) }
        return plan
    }

    /// A part of the chart, in its own units (the SVG's viewBox): x, y, width, height.
    public typealias Window = (x: Double, y: Double, width: Double, height: Double)

    /// The PDF of `svg` (an SVG with a viewBox, as every familytree chart has). `sheet`, when
    /// given, writes the SVG of only what lies in a window of the chart (in the same
    /// coordinates): each sheet of a poster is then drawn from its own small SVG instead of
    /// the whole chart again, which for a large tree is the difference between seconds and minutes.
    public func render(svg: [UInt8], sheet: ((Window) -> [UInt8])? = nil) throws(PDFError) -> [UInt8] {
        let handle = try Self.handle(svg)
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var intrinsicWidth = RsvgLength(), intrinsicHeight = RsvgLength(), viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &intrinsicWidth, &hasHeight, &intrinsicHeight, &hasViewBox, &viewBox)
        guard hasViewBox != 0 else { throw .unreadableSVG("the SVG has no viewBox") }
        let plan = try plan(width: viewBox.width, height: viewBox.height)

        let sink = ByteSink()
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque(), plan.pageWidth, plan.pageHeight)
        defer { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, Self.oneLine(title))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "familytree")
        if let date {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date + "T00:00:00Z")
        }
        guard let context = cairo_create(surface) else { throw .drawing("no drawing context") }
        defer { cairo_destroy(context) }

        let chartWidth = viewBox.width * plan.points, chartHeight = viewBox.height * plan.points
        /// The chart with its top left at (x, y), `factor` times its size at `plan.points`. librsvg
        /// draws it whole each time (clipped to the page): drawn once into a recording and shown
        /// from there, cairo's PDF turns the names into outlines, and they would no longer be text.
        var failure: PDFError?
        func drawChart(at x: Double, _ y: Double, factor: Double, window: Window?) {
            var part = handle
            if let window, let sheet {
                do {
                    part = try Self.handle(sheet(window))
                } catch {
                    failure = failure ?? error
                    return
                }
            }
            defer { if part != handle { g_object_unref(UnsafeMutableRawPointer(part)) } }
            var viewport = RsvgRectangle(x: x, y: y, width: chartWidth * factor, height: chartHeight * factor)
            var error: UnsafeMutablePointer<GError>?
            if rsvg_handle_render_document(part, context, &viewport, &error) == 0, failure == nil {
                failure = .drawing(error.map { String(cString: $0.pointee.message) } ?? "unknown")
            }
            if let error { g_error_free(error) }
        }

        if plan.columns * plan.rows == 1 {
            // One page: centred in the sheet (or the page is the chart's size with its margin).
            drawChart(at: (plan.pageWidth - chartWidth) / 2, (plan.pageHeight - chartHeight) / 2, factor: 1, window: nil)
            cairo_show_page(context)
        } else {
            let blank = blankSheets(of: handle, plan: plan, width: chartWidth, height: chartHeight)
            let printed = (0..<plan.rows).flatMap { row in (0..<plan.columns).map { (row, $0) } }.filter { !blank.contains(Sheet(row: $0.0, column: $0.1)) }
            drawMap(plan: plan, blank: blank, context: context) { drawChart(at: $0, $1, factor: $2, window: nil) }
            for (number, (row, column)) in printed.enumerated() {
                // The sheet's part of the chart, in the chart's own units.
                let printableWidth = plan.pageWidth - 2 * margin, printableHeight = plan.pageHeight - 2 * margin
                let window = (x: Double(column) * (printableWidth - overlap) / plan.points, y: Double(row) * (printableHeight - overlap) / plan.points,
                              width: printableWidth / plan.points, height: printableHeight / plan.points)
                drawSheet(Sheet(row: row, column: column), number: number + 2, of: printed.count + 1, plan: plan, context: context) {
                    drawChart(at: $0, $1, factor: $2, window: window)
                }
            }
        }
        if let failure { throw failure }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw .drawing(String(cString: cairo_status_to_string(status))) }
        return sink.bytes
    }

    private static func handle(_ svg: [UInt8]) throws(PDFError) -> UnsafeMutablePointer<RsvgHandle> {
        var error: UnsafeMutablePointer<GError>?
        guard let handle = svg.withUnsafeBufferPointer({ rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            throw .unreadableSVG(message)
        }
        return handle
    }

    /// `text` with its control characters (a name's newline, a tab) as spaces: a title on one line.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// A sheet of a tiled poster, by its place.
    struct Sheet: Hashable {
        var row: Int
        var column: Int
    }

    /// The sheets with nothing drawn on them (a sparse chart leaves many): the chart is drawn
    /// small, once, and each sheet's part looked at for anything but the background.
    private func blankSheets(of handle: UnsafeMutablePointer<RsvgHandle>, plan: Plan, width: Double, height: Double) -> Set<Sheet> {
        // At most 2,400 pixels on the long side: a sheet is tens of pixels, a box a few.
        let factor = min(1, 2_400 / max(width, height))
        let pixelsWide = Int32(max(1, (width * factor).rounded(.up))), pixelsHigh = Int32(max(1, (height * factor).rounded(.up)))
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pixelsWide, pixelsHigh) else { return [] }
        defer { cairo_surface_destroy(image) }
        let painter = cairo_create(image)
        var viewport = RsvgRectangle(x: 0, y: 0, width: width * factor, height: height * factor)
        var error: UnsafeMutablePointer<GError>?
        let drawn = rsvg_handle_render_document(handle, painter, &viewport, &error) != 0
        if let error { g_error_free(error) }
        cairo_destroy(painter)
        // A chart librsvg cannot draw small is printed whole, no sheet left out.
        guard drawn else { return [] }
        cairo_surface_flush(image)
        guard let pixels = cairo_image_surface_get_data(image) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(image))
        // The chart's background, as its top left corner (a margin) has it: anything else is ink,
        // a box's pale fill and a faint line too.
        let background = pixels.withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee } & 0xFF_FFFF
        let stepWidth = plan.pageWidth - 2 * margin - overlap, stepHeight = plan.pageHeight - 2 * margin - overlap
        var blank: Set<Sheet> = []
        for row in 0..<plan.rows {
            for column in 0..<plan.columns {
                let left = Int((Double(column) * stepWidth * factor).rounded(.down)), top = Int((Double(row) * stepHeight * factor).rounded(.down))
                let right = min(Int(pixelsWide), Int(((Double(column) * stepWidth + stepWidth + overlap) * factor).rounded(.up)))
                let bottom = min(Int(pixelsHigh), Int(((Double(row) * stepHeight + stepHeight + overlap) * factor).rounded(.up)))
                var inked = false
                scan: for y in top..<max(top, bottom) {
                    let line = pixels.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: Int(pixelsWide)) { $0 }
                    for x in left..<max(left, right) where line[x] & 0xFF_FFFF != background {
                        inked = true
                        break scan
                    }
                }
                if !inked { blank.insert(Sheet(row: row, column: column)) }
            }
        }
        return blank
    }

    /// A sheet's name: its row as letters, its column as a number ("A1", "B12", "AA3").
    public static func sheetName(row: Int, column: Int) -> String {
        var letters = "", number = row
        repeat {
            letters = String(UnicodeScalar(UInt8(65 + number % 26))) + letters
            number = number / 26 - 1
        } while number >= 0
        return letters + String(column + 1)
    }

    /// The first page: the whole chart, the sheets drawn over it with their names, and how to put them together.
    private func drawMap(plan: Plan, blank: Set<Sheet>, context: OpaquePointer, drawChart: (Double, Double, Double) -> Void) {
        let top = margin + 44
        let printableWidth = plan.pageWidth - 2 * margin, printableHeight = plan.pageHeight - top - margin
        let posterWidth = Double(plan.columns) * (plan.pageWidth - 2 * margin - overlap) + overlap
        let posterHeight = Double(plan.rows) * (plan.pageHeight - 2 * margin - overlap) + overlap
        let shrink = min(printableWidth / posterWidth, printableHeight / posterHeight)
        let left = margin + (printableWidth - posterWidth * shrink) / 2
        text(Self.oneLine(title), x: margin, y: margin + 12, size: 14, bold: true, context: context)
        let paperName = (paper?.name ?? "").uppercased()
        let skipped = blank.isEmpty ? "" : "; the \(blank.count) blank ones (crossed out) are not printed"
        text("\(plan.columns * plan.rows - blank.count) sheets of \(paperName), \(plan.columns) across and \(plan.rows) down (page 1 is this map\(skipped)). "
             + "Trim each sheet along its marks on the right and bottom edges,", x: margin, y: margin + 28, size: 8.5, context: context)
        text("lay it over the next one's shaded strip up to the dashed line, and glue: A1 is the top left, B1 below it, A2 to its right.", x: margin, y: margin + 39, size: 8.5, context: context)
        drawChart(left, top, shrink)
        cairo_set_line_width(context, 0.6)
        cairo_set_source_rgb(context, 0.85, 0.2, 0.2)
        let stepWidth = (plan.pageWidth - 2 * margin - overlap) * shrink, stepHeight = (plan.pageHeight - 2 * margin - overlap) * shrink
        for row in 0..<plan.rows {
            for column in 0..<plan.columns {
                let x = left + Double(column) * stepWidth, y = top + Double(row) * stepHeight
                cairo_rectangle(context, x, y, stepWidth + overlap * shrink, stepHeight + overlap * shrink)
                if blank.contains(Sheet(row: row, column: column)) {
                    cairo_move_to(context, x, y)
                    cairo_line_to(context, x + stepWidth, y + stepHeight)
                }
                cairo_stroke(context)
                text(Self.sheetName(row: row, column: column), x: x + 2, y: y + 8, size: max(4, min(9, stepHeight * 0.3)), color: (0.85, 0.2, 0.2), context: context)
            }
        }
        cairo_show_page(context)
    }

    /// One sheet: its part of the chart at full size, clipped to the printable area; cut marks at
    /// its corners; the strips a neighbour glues over shaded; its name and number below.
    private func drawSheet(_ sheet: Sheet, number: Int, of pageCount: Int, plan: Plan, context: OpaquePointer,
                           drawChart: (Double, Double, Double) -> Void) {
        let (row, column) = (sheet.row, sheet.column)
        let printableWidth = plan.pageWidth - 2 * margin, printableHeight = plan.pageHeight - 2 * margin
        let stepWidth = printableWidth - overlap, stepHeight = printableHeight - overlap
        cairo_save(context)
        cairo_rectangle(context, margin, margin, printableWidth, printableHeight)
        cairo_clip(context)
        drawChart(margin - Double(column) * stepWidth, margin - Double(row) * stepHeight, 1)
        // Where the next sheet to the right and below goes over this one: a dashed line, and a
        // light wash over the strip to glue under it.
        cairo_set_source_rgba(context, 0.5, 0.5, 0.5, 0.12)
        if column + 1 < plan.columns { cairo_rectangle(context, margin + stepWidth, margin, overlap, printableHeight) }
        if row + 1 < plan.rows { cairo_rectangle(context, margin, margin + stepHeight, printableWidth, overlap) }
        cairo_fill(context)
        cairo_set_source_rgb(context, 0.55, 0.55, 0.55)
        cairo_set_line_width(context, 0.5)
        var dashes = [3.0, 3.0]
        cairo_set_dash(context, &dashes, 2, 0)
        if column + 1 < plan.columns {
            cairo_move_to(context, margin + stepWidth, margin)
            cairo_line_to(context, margin + stepWidth, margin + printableHeight)
        }
        if row + 1 < plan.rows {
            cairo_move_to(context, margin, margin + stepHeight)
            cairo_line_to(context, margin + printableWidth, margin + stepHeight)
        }
        cairo_stroke(context)
        cairo_restore(context)
        // Cut marks: short lines in the margin at each corner of the printable area.
        cairo_set_source_rgb(context, 0, 0, 0)
        cairo_set_line_width(context, 0.4)
        for x in [margin, margin + printableWidth] {
            for y in [margin, margin + printableHeight] {
                cairo_move_to(context, x, y < plan.pageHeight / 2 ? y - 4 : y + 4)
                cairo_line_to(context, x, y < plan.pageHeight / 2 ? y - 16 : y + 16)
                cairo_move_to(context, x < plan.pageWidth / 2 ? x - 4 : x + 4, y)
                cairo_line_to(context, x < plan.pageWidth / 2 ? x - 16 : x + 16, y)
            }
        }
        cairo_stroke(context)
        let name = Self.sheetName(row: row, column: column)
        var neighbours: [String] = []
        if column + 1 < plan.columns { neighbours.append("\(Self.sheetName(row: row, column: column + 1)) to the right") }
        if row + 1 < plan.rows { neighbours.append("\(Self.sheetName(row: row + 1, column: column)) below") }
        let around = neighbours.isEmpty ? "" : " · " + neighbours.joined(separator: ", ") + " (glue it over the shaded strip, up to the dashed line; a blank neighbour is left out)"
        text("\(name) · page \(number) of \(pageCount)\(around)", x: margin, y: plan.pageHeight - margin / 2 + 3, size: 7.5, context: context)
        cairo_show_page(context)
    }

    private func text(_ words: String, x: Double, y: Double, size: Double, bold: Bool = false, color: (Double, Double, Double) = (0.2, 0.2, 0.25),
                      context: OpaquePointer) {
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        cairo_set_source_rgb(context, color.0, color.1, color.2)
        cairo_move_to(context, x, y)
        cairo_show_text(context, words)
    }
}

/// Where cairo's PDF bytes go as it writes them.
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// Why a chart could not be made a PDF.
public enum PDFError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadableSVG(String)
    case drawing(String)
    case tooManyPages(Int)

    public var description: String {
        switch self {
        case .unreadableSVG(let message): "librsvg could not read the chart's SVG: \(message)"
        case .drawing(let message): "the PDF could not be drawn: \(message)"
        case .tooManyPages(let count): "the poster would take \(count) pages (at most \(PDFPoster.maximumPages)): choose a smaller --scale or larger --paper"
        }
    }
}
#endif
