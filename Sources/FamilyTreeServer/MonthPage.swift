#if Server
import FamilyTree
import FamilyTreeCalendar
internal import Foundation
import HTTPTypes
import Hummingbird

/// A month of the tree's birthdays and wedding anniversaries as a calendar (seed 004): whole
/// weeks from Monday, a face in each day's cell (the person's photo, or their initials), today
/// marked, the month before and after a link away; below it the same days as a list, which is what
/// a screen reader and a narrow phone read.
extension WebApp {
    func registerMonthPage(on router: Router<ServerRequestContext>) {
        router.get("/trees/:tree/month") { request, context in
            let tree = context.parameters.get("tree") ?? ""
            let asked = request.uri.queryParameters["m"].map(String.init)
            let today = CalendarDate.date(fromDayNumber: Self.today)
            var shown = (year: today.year, month: today.month)
            if let asked {
                guard case .exact(let date)? = PartialDate(asked), let year = date.year, let month = date.month, date.day == nil, (1...9999).contains(year) else {
                    return Self.notice(.badRequest, title: "No such month", text: "m is a month as YYYY-MM, for example 2026-12")
                }
                shown = (year, month)
            }
            switch try await view(of: tree, returningTo: "/trees/\(tree)/month") {
            case .failure(let answer): return answer.response
            case .success(let view): return Self.html(Self.monthPage(of: try view.graph(), tree: tree, year: shown.year, month: shown.month, today: Self.today))
            }
        }
    }

    static func monthPage(of graph: FamilyGraph, tree: String, year: Int, month: Int, today: Int) -> String {
        let grid = MonthGrid(year: year, month: month, firstWeekday: .monday)
        let first = grid.weeks.first!.first!.dayNumber, last = grid.weeks.last!.last!.dayNumber
        let events = FamilyEvents(graph: graph).events(from: first, through: last)
        let base = "/trees/\(escaped(tree))/month?m="
        func monthParameter(_ offset: Int) -> String {
            let months = year * 12 + month - 1 + offset
            return String(format: "%04d-%02d", months / 12, months % 12 + 1)
        }
        /// A face: the photo when it is an image the page may show, else the initials.
        func face(_ event: CalendarEvent) -> String {
            if event.kind == .birthday, let photo = graph.member(event.sourceID)?.photo, photo.hasPrefix("data:image/") {
                return #"<img class="face" src="\#(escaped(photo))" alt="">"#
            }
            let words = event.names.split(whereSeparator: { $0 == " " || $0 == "&" || $0 == "-" }).filter { !$0.isEmpty }
            let initials = words.prefix(2).compactMap(\.first).map(String.init).joined().uppercased()
            return #"<span class="face" aria-hidden="true">\#(escaped(initials.isEmpty ? "?" : initials))</span>"#
        }
        var rows = ""
        for week in grid.weeks {
            rows += "<tr>"
            for day in week {
                let classes = [day.isPadding ? "other" : nil, day.dayNumber == today ? "today" : nil].compactMap { $0 }.joined(separator: " ")
                rows += #"<td\#(classes.isEmpty ? "" : #" class="\#(classes)""#)><span class="date">\#(day.dayOfMonth)</span>"#
                let happening = (events[day.dayNumber] ?? []).filter { !day.isPadding || $0.kind == .birthday }
                if !happening.isEmpty {
                    rows += "<ul>" + happening.map { #"<li title="\#(escaped($0.label))">\#(face($0))<span class="label">\#(escaped($0.label))</span></li>"# }.joined() + "</ul>"
                }
                rows += "</td>"
            }
            rows += "</tr>\n"
        }
        var list = ""
        for day in grid.weeks.joined() where !day.isPadding {
            for event in events[day.dayNumber] ?? [] {
                let word = event.kind == .birthday ? "birthday" : "wedding anniversary"
                list += #"<li>\#(face(event))<span><strong>\#(MonthGrid.monthNames[month - 1].prefix(3)) \#(day.dayOfMonth)</strong> \#(escaped(event.label)) <span class="muted">(\#(word))</span></span></li>"#
            }
        }
        let heading = "\(grid.title) in \(tree)’s tree"
        return """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(heading))</title><link rel="stylesheet" href="/app/app.css"></head>
            <body class="wide">
            <header><a class="brand" href="/">familytree</a><nav aria-label="This tree"><a href="/">← Trees</a> <a href="/trees/\(escaped(tree))">Chart</a> <a href="/trees/\(escaped(tree))/birthdays">Birthdays</a></nav></header>
            <main>
            <h1>\(escaped(heading))</h1>
            <nav class="chips" aria-label="Months"><a class="chip" href="\(base)\(monthParameter(-1))" rel="prev">← \(MonthGrid.monthNames[(month + 10) % 12])</a> <a class="chip" href="\(base)\(monthParameter(1))" rel="next">\(MonthGrid.monthNames[month % 12]) →</a></nav>
            <table id="month" class="month" aria-hidden="true">
            <thead><tr>\(grid.weekdays.map { "<th>\($0.shortName)</th>" }.joined())</tr></thead>
            <tbody>
            \(rows)</tbody></table>
            <h2 id="month-list-title">\(list.isEmpty ? "Nothing to celebrate this month" : "This month")</h2>
            <ul id="month-list" class="month-list" aria-labelledby="month-list-title">\(list)</ul>
            </main>
            </body>
            </html>

            """
    }
}
#endif
