import FamilyTree
import FamilyTreeLayout

/// Renders a layout as one self-contained HTML page to explore: zoom and pan, search, a card for
/// each person, keyboard moves between relatives, the URL's `#member-id` opening on a person.
///
/// The page needs nothing from the network: the layout travels as compact JSON inside it and a
/// small viewer script (`HTMLViewer`) draws only what is on screen on a canvas, so a tree of
/// 100,000 people pans smoothly. Every user string is escaped for its place: HTML text in the
/// page, and JSON whose `<`, `>` and `&` are `\u` escapes inside the data script, so a name such
/// as `</script>` cannot end it. The viewer puts names into the page only as text, never as markup.
public struct HTMLRenderer: Sendable {
    /// Writes each member's label and sizes the boxes.
    public var labeler: Labeler
    /// The page's title; defaults to a count of members.
    public var title: String?
    /// The member the page opens on (centred and selected), unless the URL names another.
    public var openOn: Member.ID?
    /// Where a page too large to read whole starts (at full size, just under the toolbar), when
    /// it has no one to open on; `nil`: the eldest of the topmost generation of its largest family.
    public var start: Member.ID?
    /// The day ages are given on (a day number); `nil` leaves ages out.
    public var today: Int?
    /// Where the page's style sheet and viewer script are: inside it (a file to keep or send), or
    /// linked from the site that serves it.
    public var assets: Assets = .inline

    /// Where a page's style sheet and script come from.
    public enum Assets: Sendable, Hashable {
        /// Inside the page, which then needs nothing else (its policy allows inline code only).
        case inline
        /// Linked from these addresses on the page's own site (`viewerStyleSheet` and
        /// `viewerScript` served there); the site sends the page's Content-Security-Policy, which
        /// can then allow no inline script at all. `home`, if any, is a link at the start of the
        /// toolbar (`#home-link`, styled by the site), back to the site's own pages.
        /// `moreScripts` load after the viewer, in order (a site's own additions to the page).
        case linked(styleSheet: String, script: String, home: Link? = nil, moreScripts: [String] = [])
    }

    /// Facts for a site's own scripts, written as `data-` attributes of `<body>` in key order
    /// (keys are lower-case letters and hyphens; others are left out).
    public var pageData: [String: String] = [:]

    /// Words at the foot of the page from its first paint (`<p id="live-status">`, a polite
    /// `status` for screen readers), for a site's script to change: what is under way while the
    /// page's own scripts are still loading. `nil` for none.
    public var statusLine: String?

    /// A link's words and address.
    public struct Link: Sendable, Hashable {
        public var text: String
        public var address: String

        public init(_ text: String, to address: String) {
            self.text = text
            self.address = address
        }
    }

    /// The viewer's style sheet, for a site that serves pages with `.linked` assets.
    public static var viewerStyleSheet: String { HTMLViewer.styleSheet }
    /// The viewer's script, for a site that serves pages with `.linked` assets.
    public static var viewerScript: String { HTMLViewer.script }

    /// A renderer labelling with `labeler`, titled `title`, opening on `openOn`, giving ages on `today`.
    public init(labeler: Labeler = Labeler(), title: String? = nil, openOn: Member.ID? = nil, today: Int? = nil, assets: Assets = .inline) {
        self.labeler = labeler
        self.title = title
        self.openOn = openOn
        self.today = today
        self.assets = assets
    }

    /// The page; identical input gives byte-identical output. Throws when `layout` was not made
    /// of `graph`.
    public func render(_ layout: Layout, of graph: FamilyGraph) throws(LayoutMismatch) -> String {
        try layout.check(against: graph)
        var output = CollectedOutput()
        // Collecting in memory cannot fail.
        try! render(layout, of: graph, to: &output)
        return output.text
    }

    /// Writes the page to `output` in chunks. Throws `LayoutMismatch` when `layout` was not made
    /// of `graph`, and `output`'s own errors.
    public func render<Output: RenderedOutput>(_ layout: Layout, of graph: FamilyGraph, to output: inout Output) throws {
        try layout.check(against: graph)
        var writer = ChunkedWriter(output)
        let pageTitle = title ?? "Family tree (\(graph.members.count) \(graph.members.count == 1 ? "person" : "people"))"
        writePageStart(title: pageTitle, into: &writer)
        try writeData(layout, of: graph, title: pageTitle, into: &writer)
        writePageEnd(into: &writer)
        try writer.flush()
        output = writer.output
    }

    /// The page around data `renderData` wrote (kept from an earlier request, say); `title` is
    /// the page's (`title`, when set, wins).
    public func page(around data: String, title fallbackTitle: String) -> String {
        var writer = ChunkedWriter(CollectedOutput())
        writePageStart(title: title ?? fallbackTitle, into: &writer)
        writer.append(data)
        writePageEnd(into: &writer)
        // Collecting in memory cannot fail.
        try! writer.flush()
        return writer.output.text
    }

    /// Everything before the data: the head, the viewer's controls, the data script's start tag.
    private func writePageStart<Output>(title pageTitle: String, into writer: inout ChunkedWriter<Output>) {
        writer.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        writer.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        if case .inline = assets {
            // No request may leave the page: nothing but inline styles, scripts and data: images.
            writer.append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n")
        }
        writer.append("<title>")
        writer.appendEscaped(pageTitle)
        switch assets {
        case .inline:
            writer.append("</title>\n<style>\n")
            writer.append(HTMLViewer.styleSheet)
            writer.append("</style>\n</head>\n")
        case .linked(let styleSheet, _, _, _):
            writer.append("</title>\n<link rel=\"stylesheet\" href=\"")
            writer.appendEscaped(styleSheet)
            writer.append("\">\n</head>\n")
        }
        writer.append("<body")
        for (key, value) in pageData.sorted(by: { $0.key < $1.key }) where !key.isEmpty && key.allSatisfy({ ("a"..."z").contains($0) || $0 == "-" }) {
            writer.append(" data-\(key)=\"")
            writer.appendEscaped(value)
            writer.append("\"")
        }
        writer.append(">\n")
        if case .linked(_, _, let home?, _) = assets, let toolbarStart = HTMLViewer.body.firstIndex(of: "\n") {
            // The toolbar's opening tag is the body's first line; the link goes first inside it.
            writer.append(String(HTMLViewer.body[...toolbarStart]))
            writer.append("<a id=\"home-link\" href=\"")
            writer.appendEscaped(home.address)
            writer.append("\">")
            writer.appendEscaped(home.text)
            writer.append("</a>\n")
            writer.append(String(HTMLViewer.body[HTMLViewer.body.index(after: toolbarStart)...]))
        } else {
            writer.append(HTMLViewer.body)
        }
        if let statusLine {
            writer.append("<p id=\"live-status\" class=\"live-status\" role=\"status\" aria-live=\"polite\">")
            writer.appendEscaped(statusLine)
            writer.append("</p>\n")
        }
        writer.append("<script type=\"application/json\" id=\"family-tree-data\">")
    }

    /// Everything after the data: the scripts and the page's end.
    private func writePageEnd<Output>(into writer: inout ChunkedWriter<Output>) {
        switch assets {
        case .inline:
            writer.append("</script>\n<script>\n")
            writer.append(HTMLViewer.script)
            writer.append("</script>\n</body>\n</html>\n")
        case .linked(_, let script, _, let moreScripts):
            writer.append("</script>\n")
            for address in [script] + moreScripts {
                writer.append("<script src=\"")
                writer.appendEscaped(address)
                writer.append("\"></script>\n")
            }
            writer.append("</body>\n</html>\n")
        }
    }

    /// The page's data alone (what `#family-tree-data` holds): JSON for a site that sends a
    /// changed tree to a page already open (`familyTreeViewer.load`). Throws `LayoutMismatch` when
    /// `layout` was not made of `graph`.
    public func renderData(_ layout: Layout, of graph: FamilyGraph) throws(LayoutMismatch) -> String {
        try layout.check(against: graph)
        var writer = ChunkedWriter(CollectedOutput())
        let pageTitle = title ?? "Family tree (\(graph.members.count) \(graph.members.count == 1 ? "person" : "people"))"
        // Collecting in memory cannot fail.
        try! writeData(layout, of: graph, title: pageTitle, into: &writer)
        try! writer.flush()
        return writer.output.text
    }

    /// The layout as compact JSON, safe inside a script element.
    ///
    /// `m`: members `[id, label lines, x, y, width, height, sex, flags, colour, card]` (flags: 1 a
    /// cross-bloodline member, 2 removed from view); `u`: unions `[x, y, partners, children, child
    /// kinds, marriage, divorce]` by member index; `e`: lines `[kind, x1, y1, x2, y2, ...]` (kind 0
    /// partner, 1 child, 2 other parent, 3 cross-bloodline, 4 an adopted or foster child's, 5 a
    /// step-child's, 6 a divorced couple's); `legend`: the styled kinds used, with their words;
    /// `c`: cross-bloodline links `[child, parent]`. Coordinates are whole points.
    private func writeData<Output>(_ layout: Layout, of graph: FamilyGraph, title: String, into writer: inout ChunkedWriter<Output>) throws {
        func string(_ text: String) { writer.appendScriptSafeJSON(text) }
        func integer(_ value: Double) { writer.appendNumber(value.rounded()) }
        /// Whole points separated by commas.
        func integers(_ values: Double...) {
            for (position, value) in values.enumerated() {
                if position > 0 { writer.append(",") }
                integer(value)
            }
        }
        writer.append("{\"title\":")
        string(title)
        writer.append(",\"direction\":")
        string(layout.direction.rawValue)
        writer.append(",\"width\":")
        integer(layout.width)
        writer.append(",\"height\":")
        integer(layout.height)
        writer.append(",\"open\":")
        if let openOn, let index = graph.index(of: openOn) { writer.append("\(index)") } else { writer.append("null") }
        writer.append(",\"start\":")
        if let start = start.flatMap(graph.index(of:)) ?? HTMLRenderer.startingMember(in: graph, layout: layout) {
            writer.append("\(start)")
        } else {
            writer.append("null")
        }
        writer.append(",\"m\":[")
        let context = MemberContext(graph)
        // A member's entry is the most work here (its label, its card): written on every core.
        try writer.appendRecords(layout.boxes.indices) { [self] position, part in
            if position > 0 { part.append(",") }
            writeMember(layout.boxes[position], of: graph, context: context, into: &part)
        }
        writer.append("],\"u\":[")
        for (position, point) in layout.unions.enumerated() {
            let union = graph.unions[point.union]
            if position > 0 { writer.append(",") }
            writer.append("[")
            integers(point.x, point.y)
            writer.append(",[\(graph.topology.partners[point.union].map(String.init).joined(separator: ","))]")
            writer.append(",[\(graph.topology.children[point.union].map(String.init).joined(separator: ","))]")
            writer.append(",[\(union.children.map { "\(Self.kindCode($0.kind))" }.joined(separator: ","))],")
            if let marriage = union.marriage?.displayText ?? union.marriagePhrase { string(marriage) } else { writer.append("null") }
            writer.append(",")
            if let divorce = union.divorce?.displayText ?? union.divorcePhrase { string(divorce) } else { writer.append("null") }
            writer.append("]")
            try writer.flushIfFull()
        }
        writer.append("],\"e\":[")
        let styles = LineStyle.styles(of: layout, in: graph)
        for (position, (edge, style)) in zip(layout.edges, styles).enumerated() {
            if position > 0 { writer.append(",") }
            let kind = switch (edge.kind, style) {
            case (_, .divorced?): 6
            case (_, .adopted?), (_, .foster?): 4
            case (_, .step?): 5
            case (.partner, nil): 0
            case (.child, nil): 1
            case (.otherParent, nil): 2
            case (.crossBloodline, nil): 3
            }
            writer.append("[\(kind)")
            for point in edge.points {
                writer.append(",")
                integers(point.x, point.y)
            }
            writer.append("]")
            try writer.flushIfFull()
        }
        writer.append("],\"legend\":[")
        writer.append(LineStyle.allCases.filter(styles.contains).map { "[\(Self.legendCode($0)),\"\($0.legend)\"]" }.joined(separator: ","))
        writer.append("],\"c\":[")
        for (position, link) in graph.topology.crossLinks.enumerated() {
            if position > 0 { writer.append(",") }
            writer.append("[\(link.child),\(link.parent)]")
        }
        writer.append("]}")
    }

    /// The `m` entries `renderData` writes for the members with `ids`, each with its place in
    /// `m`: all a page showing this layout needs when only those people's cards or labels
    /// changed (a note, a name that keeps its box's size). Ids not drawn are left out. Throws
    /// `LayoutMismatch` when `layout` was not made of `graph`.
    public func renderMemberEntries(_ layout: Layout, of graph: FamilyGraph, ids: some Sequence<String>) throws(LayoutMismatch) -> [(position: Int, entry: String)] {
        try layout.check(against: graph)
        var positionOfMember: [Int: Int] = [:]
        for (position, box) in layout.boxes.enumerated() { positionOfMember[box.member] = position }
        let context = MemberContext(graph)
        let positions = Set(ids.compactMap { graph.index(of: $0).flatMap { positionOfMember[$0] } })
        return positions.sorted().map { position in
            var writer = ChunkedWriter(CollectedOutput())
            writeMember(layout.boxes[position], of: graph, context: context, into: &writer)
            // Collecting in memory cannot fail.
            try! writer.flush()
            return (position, writer.output.text)
        }
    }

    /// What every member's entry reads from the whole tree.
    private struct MemberContext: Sendable {
        let crossChildren: Set<String>
        let wording: EventWording
        let media: MediaCatalog

        init(_ graph: FamilyGraph) {
            crossChildren = Set(graph.crossBloodlineConnections.map(\.fromChild))
            wording = EventWording(sources: graph.sources)
            media = MediaCatalog(graph)
        }
    }

    /// One member's `m` entry: `[id, label lines, x, y, width, height, sex, flags, colour, card]`.
    private func writeMember<Output>(_ box: Layout.MemberBox, of graph: FamilyGraph, context: MemberContext, into writer: inout ChunkedWriter<Output>) {
        let member = graph.members[box.member]
        writer.append("[")
        writer.appendScriptSafeJSON(member.id)
        writer.append(",[")
        // The name's lines travel as one, broken by newlines; the viewer draws them bold.
        let text = labeler.text(for: member)
        let lines = [text.name.joined(separator: "\n")] + text.details
        for (line, words) in lines.enumerated() {
            if line > 0 { writer.append(",") }
            writer.appendScriptSafeJSON(words)
        }
        writer.append("],")
        for (position, value) in [box.x, box.y, box.width, box.height].enumerated() {
            if position > 0 { writer.append(",") }
            writer.appendNumber(value.rounded())
        }
        let sex = switch member.sex { case .male?: 1; case .female?: 2; case .other?: 3; default: 0 }
        writer.append(",\(sex),\(context.crossChildren.contains(member.id) ? 1 : 0),")
        if let color = member.color { writer.appendScriptSafeJSON(color) } else { writer.append("null") }
        writer.append(",")
        writeCard(member, label: text.name.joined(separator: " "), wording: context.wording, media: context.media.media(of: member), into: &writer)
        writer.append("]")
    }

    /// What the card shows beyond the label: `{n: full name (when the label's first line is not
    /// already it), k: nickname, i: initials (when a suffix would mislead the page's own), b: born, d: died (each with its place), a: age, p: photo,
    /// ev: other events (a line each, with places and sources), so: sources, me: media (titles and
    /// files, as text: the page loads nothing), t: notes, ph: phones, em: e-mails}`, each only when
    /// there is one.
    private func writeCard<Output>(_ member: Member, label: String?, wording: EventWording, media: [MediaLink], into writer: inout ChunkedWriter<Output>) {
        var fields: [(String, String)] = member.fullName == label ? [] : [("n", member.fullName)]
        if let nickname = member.nickname, !nickname.isEmpty { fields.append(("k", nickname)) }
        // The page takes initials from the full name; a suffix ("Jr.", a title) would give the wrong ones.
        if let suffix = member.suffix, !suffix.isEmpty { fields.append(("i", member.initials)) }
        // The first birth and death with their places; every other event a line.
        let birth = member.events.firstIndex { $0.kind == .birth }
        let death = member.events.firstIndex { $0.kind == .death }
        let born = member.birthday?.displayText ?? member.birthPhrase
        let died = member.deathDate?.displayText ?? member.deathPhrase
        if let text = birth.flatMap({ wording.when(member.events[$0], date: born) }) ?? born { fields.append(("b", text)) }
        if let text = death.flatMap({ wording.when(member.events[$0], date: died) }) ?? died { fields.append(("d", text)) }
        if let today, let birthday = member.birthday {
            if let death = member.deathDate, let age = Age(birthday: birthday, death: death) {
                fields.append(("a", "died at \(age)"))
            } else if !LivingRule().isDead(member, on: today), let age = Age(birthday: birthday, on: today) {
                fields.append(("a", "\(age)"))
            }
        }
        // Only an embedded image can be shown: a page that loads nothing from elsewhere.
        if let photo = member.photo.flatMap({ ImageData.validatedDataURL($0) }) { fields.append(("p", photo)) }
        let others = member.events.indices.filter { $0 != birth && $0 != death }.map { wording.line(member.events[$0]) }
        if !others.isEmpty { fields.append(("ev", others.joined(separator: "\n"))) }
        let sources = wording.sources(member.citations)
        if !sources.isEmpty { fields.append(("so", sources.joined(separator: "\n"))) }
        if !media.isEmpty { fields.append(("me", media.map { link in link.title.map { "\($0) (\(link.file))" } ?? link.file }.joined(separator: "\n"))) }
        if let notes = member.notes, !notes.isEmpty { fields.append(("t", notes)) }
        if let contact = member.contact {
            let phones = contact.phones.map { $0.label.isEmpty ? $0.value : "\($0.label): \($0.value)" }
            let emails = contact.emails.map(\.value)
            if !phones.isEmpty { fields.append(("ph", phones.joined(separator: "\n"))) }
            if !emails.isEmpty { fields.append(("em", emails.joined(separator: "\n"))) }
        }
        writer.append("{")
        for (position, (key, value)) in fields.enumerated() {
            writer.append(position == 0 ? "\"" : ",\"")
            writer.append(key)
            writer.append("\":")
            writer.appendScriptSafeJSON(value)
        }
        writer.append("}")
    }

    /// The line kind the viewer draws a style with (see the `e` codes).
    static func legendCode(_ style: LineStyle) -> Int {
        switch style {
        case .adopted, .foster: 4
        case .step: 5
        case .divorced: 6
        }
    }

    static func kindCode(_ kind: ChildKind) -> Int {
        switch kind {
        case .birth: 0
        case .adopted: 1
        case .step: 2
        case .foster: 3
        }
    }
}

extension ChunkedWriter {
    /// `text` as a JSON string that is also safe inside an HTML script element: `<`, `>`, `&`,
    /// U+2028 and U+2029 as `\u` escapes, so no name can close the element or open a comment.
    mutating func appendScriptSafeJSON(_ text: String) {
        var quoted = ""
        for scalar in JSONWriter.quoted(text).unicodeScalars {
            switch scalar {
            case "<": quoted += "\\u003c"
            case ">": quoted += "\\u003e"
            case "&": quoted += "\\u0026"
            case "\u{2028}": quoted += "\\u2028"
            case "\u{2029}": quoted += "\\u2029"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        append(quoted)
    }
}

extension HTMLRenderer {
    /// Where a page with no person to open on starts when the whole tree is too small to read:
    /// the eldest of the topmost generation of the largest family (the most people joined by
    /// partnerships and parenthood), so the reader starts at the top of the tree most of the
    /// people are in. Nil for an empty tree.
    static func startingMember(in graph: FamilyGraph, layout: Layout) -> Int? {
        guard layout.boxes.count == graph.members.count else { return nil }
        return startingMember(in: graph) { layout.boxes[$0].layer }
    }

    /// Where `startingMember(in:layout:)` will most likely be once the tree is laid out, found
    /// without laying it out (a large tree's layout takes seconds): generations counted down from
    /// the longest line of descendants, which the layout's layers mostly follow.
    public static func likelyStartingMember(in graph: FamilyGraph) -> Int? {
        let children = graph.childLists()
        var parentCount = graph.parentLists().map(\.count)
        // Parents before children (a valid tree has no cycle; anyone in one would count as a leaf).
        var order = graph.members.indices.filter { parentCount[$0] == 0 }
        var next = 0
        while next < order.count {
            for child in children[order[next]] {
                parentCount[child] -= 1
                if parentCount[child] == 0 { order.append(child) }
            }
            next += 1
        }
        var descendantLine = Array(repeating: 0, count: graph.members.count)
        for member in order.reversed() {
            descendantLine[member] = children[member].map { descendantLine[$0] + 1 }.max() ?? 0
        }
        return startingMember(in: graph) { -descendantLine[$0] }
    }

    /// The eldest of the topmost generation (by `generation`) of the largest family.
    private static func startingMember(in graph: FamilyGraph, generation: (Int) -> Int) -> Int? {
        guard !graph.members.isEmpty else { return nil }
        var parent = Array(graph.members.indices)
        func root(_ member: Int) -> Int {
            var current = member
            while parent[current] != current {
                parent[current] = parent[parent[current]]
                current = parent[current]
            }
            return current
        }
        let topology = graph.topology
        for (union, partners) in topology.partners.enumerated() {
            guard let first = partners.first else { continue }
            for other in partners.dropFirst() + topology.children[union] {
                let (a, b) = (root(first), root(other))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var size: [Int: Int] = [:]
        for member in graph.members.indices { size[root(member), default: 0] += 1 }
        let largest = size.max { ($0.value, -$0.key) < ($1.value, -$1.key) }!.key
        return graph.members.indices.filter { root($0) == largest }.min { a, b in
            let (generationA, generationB) = (generation(a), generation(b))
            if generationA != generationB { return generationA < generationB }
            switch (graph.members[a].siblingOrderDate?.sortKey, graph.members[b].siblingOrderDate?.sortKey) {
            case let (dateA?, dateB?) where dateA != dateB: return dateA < dateB
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a < b
            }
        }
    }
}
