import FamilyTree
import FamilyTreeCalendar

/// Renders a month calendar, and a twelve-month year page, as standalone SVG: padding days
/// from the months around dimmed, today marked, each day listing its birthdays (with the age turned)
/// and wedding anniversaries (with the years married). No scripts; every name XML-escaped; a
/// `prefers-color-scheme: dark` style like the tree's.
public struct CalendarSVGRenderer: Sendable {
    /// The weekday each row starts on.
    public var firstWeekday: Weekday
    /// Today as a day number, marked on the calendar; nil marks nothing.
    public var today: Int?
    /// The colours: light (the default: a calendar is printed or put in a page), dark, or the system's.
    public var theme: SVGRenderer.Theme

    /// A renderer with rows starting on `firstWeekday`; `today` (a day number) is marked; in `theme`.
    public init(firstWeekday: Weekday = .monday, today: Int? = nil, theme: SVGRenderer.Theme = .light) {
        self.firstWeekday = firstWeekday
        self.today = today
        self.theme = theme
    }

    static let cellWidth = 150.0
    static let cellHeight = 112.0
    static let margin = 20.0
    static let titleHeight = 54.0
    static let weekdayHeight = 28.0
    static let eventLines = 5

    static let lightRules = """
    svg.family-calendar { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
    .background { fill: #ffffff; }
    .title { font-size: 24px; font-weight: 700; fill: #1d2433; }
    .weekday { font-size: 12px; font-weight: 600; fill: #5b6b8c; text-transform: uppercase; }
    .day rect.cell { fill: #f4f6fb; stroke: #d5dbe8; stroke-width: 1; }
    .day text.number { font-size: 13px; font-weight: 600; fill: #1d2433; }
    .day.padding rect.cell { fill: #fafbfd; }
    .day.padding text { fill: #b3bbcc; }
    .day.today rect.cell { stroke: #d9822b; stroke-width: 2.5; }
    .day.today circle.marker { fill: #d9822b; }
    .day.today text.number { fill: #ffffff; }
    .event { font-size: 11px; fill: #2f4a7a; }
    .event.anniversary { fill: #8a3b62; font-style: italic; }
    .more { font-size: 10px; fill: #5b6b8c; }
    .sign.birthday { fill: #2f4a7a; }
    .sign.anniversary { fill: none; stroke: #8a3b62; stroke-width: 1.2; }
    .key { font-size: 11px; fill: #5b6b8c; }
    .mini .month-title { font-size: 15px; font-weight: 700; fill: #1d2433; }
    .mini text.number { font-size: 10px; font-weight: 400; }
    .mini .day.has-events circle.dot { fill: #2f4a7a; }
    .mini .day.has-events text.number { fill: #ffffff; font-weight: 700; }
    """

    /// The dark colours, over the light ones.
    static let darkRules = """
    .background { fill: #14171f; }
    .title, .mini .month-title { fill: #e8ecf4; }
    .weekday { fill: #8fa3c8; }
    .day rect.cell { fill: #1c212c; stroke: #2c3444; }
    .day text.number { fill: #e8ecf4; }
    .day.padding rect.cell { fill: #171b24; }
    .day.padding text { fill: #4d5668; }
    .event { fill: #9fc0f0; }
    .event.anniversary { fill: #e6a1c4; }
    .more { fill: #8fa3c8; }
    .mini .day.has-events circle.dot { fill: #6f93cf; }
    .sign.birthday { fill: #9fc0f0; }
    .sign.anniversary { stroke: #e6a1c4; }
    .key { fill: #8fa3c8; }
    """

    /// The style sheet for `theme`.
    static func styleSheet(_ theme: SVGRenderer.Theme) -> String {
        switch theme {
        case .light: lightRules
        case .dark: lightRules + "\n" + darkRules
        case .auto: lightRules + "\n@media (prefers-color-scheme: dark) {\n" + darkRules.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n}"
        }
    }

    /// One month with the events of `events`.
    public func renderMonth(year: Int, month: Int, events: FamilyEvents) -> String {
        let grid = MonthGrid(year: year, month: month, firstWeekday: firstWeekday)
        let allDays = grid.weeks.flatMap { $0 }
        let byDay = events.events(from: allDays.first!.dayNumber, through: allDays.last!.dayNumber)
        let width = 2 * Self.margin + 7 * Self.cellWidth
        let height = 2 * Self.margin + Self.titleHeight + Self.weekdayHeight + Double(grid.weeks.count) * Self.cellHeight
        var svg = header(width: width, height: height, title: "Birthdays and anniversaries, \(grid.title)")
        svg += "<text class=\"title\" x=\"\(n(Self.margin))\" y=\"\(n(Self.margin + 30))\">\(Formatting.xmlEscaped(grid.title))</text>\n"
        svg += Self.key(right: width - Self.margin, y: Self.margin + 26)
        for (column, weekday) in grid.weekdays.enumerated() {
            let x = Self.margin + Double(column) * Self.cellWidth + 8
            svg += "<text class=\"weekday\" x=\"\(n(x))\" y=\"\(n(Self.margin + Self.titleHeight + 18))\">\(weekday.shortName)</text>\n"
        }
        for (row, week) in grid.weeks.enumerated() {
            for (column, day) in week.enumerated() {
                let x = Self.margin + Double(column) * Self.cellWidth
                let y = Self.margin + Self.titleHeight + Self.weekdayHeight + Double(row) * Self.cellHeight
                svg += monthCell(day, x: x, y: y, events: byDay[day.dayNumber] ?? [])
            }
        }
        return svg + "</svg>\n"
    }

    private func monthCell(_ day: MonthGrid.Day, x: Double, y: Double, events: [CalendarEvent]) -> String {
        var classes = ["day"]
        if day.isPadding { classes.append("padding") }
        if day.dayNumber == today { classes.append("today") }
        if !events.isEmpty { classes.append("has-events") }
        let date = BirthdayListFormat.isoDate(day.dayNumber)
        var cell = "<g class=\"\(classes.joined(separator: " "))\" data-date=\"\(date)\">\n"
        cell += "<title>\(Formatting.xmlEscaped(([date] + events.map(\.label)).joined(separator: "\n")))</title>\n"
        cell += "<rect class=\"cell\" x=\"\(n(x + 1))\" y=\"\(n(y + 1))\" width=\"\(n(Self.cellWidth - 2))\" height=\"\(n(Self.cellHeight - 2))\" rx=\"6\"/>\n"
        if day.dayNumber == today {
            cell += "<circle class=\"marker\" cx=\"\(n(x + 17))\" cy=\"\(n(y + 16))\" r=\"11\"/>\n"
        }
        cell += "<text class=\"number\" x=\"\(n(x + 17))\" y=\"\(n(y + 20.5))\" text-anchor=\"middle\">\(day.dayOfMonth)</text>\n"
        let shown = events.count > Self.eventLines ? Self.eventLines - 1 : events.count
        for (line, event) in events.prefix(shown).enumerated() {
            let text = Labeler.shortened(event.label, fontSize: 11, limit: Self.cellWidth - 20)
            let baseline = y + 44 + Double(line) * 14
            cell += Self.sign(event.kind, x: x + 10, y: baseline - 4)
            cell += "<text class=\"event \(event.kind.rawValue)\" x=\"\(n(x + 16))\" y=\"\(n(baseline))\">\(Formatting.xmlEscaped(text))</text>\n"
        }
        if events.count > shown {
            cell += "<text class=\"more\" x=\"\(n(x + 8))\" y=\"\(n(y + 44 + Double(shown) * 14))\">+\(events.count - shown) more</text>\n"
        }
        return cell + "</g>\n"
    }

    /// The sign before an event: a filled dot for a birthday, two rings for a wedding anniversary.
    static func sign(_ kind: CalendarEvent.Kind, x: Double, y: Double) -> String {
        func n(_ value: Double) -> String { Formatting.number(value) }
        switch kind {
        case .birthday:
            return "<circle class=\"sign birthday\" cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"2.8\"/>\n"
        case .anniversary:
            return "<circle class=\"sign anniversary\" cx=\"\(n(x - 2))\" cy=\"\(n(y))\" r=\"2.8\"/><circle class=\"sign anniversary\" cx=\"\(n(x + 2))\" cy=\"\(n(y))\" r=\"2.8\"/>\n"
        }
    }

    /// What the signs mean, right-aligned at `right`.
    static func key(right: Double, y: Double) -> String {
        func n(_ value: Double) -> String { Formatting.number(value) }
        let anniversaryX = right - 118, birthdayX = anniversaryX - 72
        return sign(.birthday, x: birthdayX, y: y - 4)
            + "<text class=\"key\" x=\"\(n(birthdayX + 8))\" y=\"\(n(y))\">birthday</text>\n"
            + sign(.anniversary, x: anniversaryX, y: y - 4)
            + "<text class=\"key\" x=\"\(n(anniversaryX + 8))\" y=\"\(n(y))\">wedding anniversary</text>\n"
    }

    /// Twelve months on one page; days with events are marked and name them in their tooltip.
    public func renderYear(_ year: Int, events: FamilyEvents) -> String {
        let miniCell = (width: 30.0, height: 24.0)
        let miniWidth = 7 * miniCell.width
        let miniHeight = 28 + 18 + 6 * miniCell.height
        let gap = 28.0
        let width = 2 * Self.margin + 3 * miniWidth + 2 * gap
        let height = 2 * Self.margin + Self.titleHeight + 4 * miniHeight + 3 * gap
        let first = CalendarDate.dayNumber(year: year, month: 1, day: 1)
        let byDay = events.events(from: first - 7, through: CalendarDate.dayNumber(year: year, month: 12, day: 31) + 14)
        var svg = header(width: width, height: height, title: "Birthdays and anniversaries, \(year)")
        svg += "<text class=\"title\" x=\"\(n(Self.margin))\" y=\"\(n(Self.margin + 30))\">\(year)</text>\n"
        for month in 1...12 {
            let grid = MonthGrid(year: year, month: month, firstWeekday: firstWeekday)
            let originX = Self.margin + Double((month - 1) % 3) * (miniWidth + gap)
            let originY = Self.margin + Self.titleHeight + Double((month - 1) / 3) * (miniHeight + gap)
            svg += "<g class=\"mini\" data-month=\"\(year)-\(month < 10 ? "0" : "")\(month)\">\n"
            svg += "<text class=\"month-title\" x=\"\(n(originX))\" y=\"\(n(originY + 18))\">\(MonthGrid.monthNames[month - 1])</text>\n"
            for (column, weekday) in grid.weekdays.enumerated() {
                svg += "<text class=\"weekday\" x=\"\(n(originX + (Double(column) + 0.5) * miniCell.width))\" y=\"\(n(originY + 40))\" text-anchor=\"middle\">\(weekday.initial)</text>\n"
            }
            for (row, week) in grid.weeks.enumerated() {
                for (column, day) in week.enumerated() {
                    let centerX = originX + (Double(column) + 0.5) * miniCell.width
                    let centerY = originY + 46 + (Double(row) + 0.5) * miniCell.height
                    // Padding days belong to the neighbouring month's own grid: no events here.
                    let dayEvents = day.isPadding ? [] : (byDay[day.dayNumber] ?? [])
                    var classes = ["day"]
                    if day.isPadding { classes.append("padding") }
                    if day.dayNumber == today, !day.isPadding { classes.append("today") }
                    if !dayEvents.isEmpty { classes.append("has-events") }
                    svg += "<g class=\"\(classes.joined(separator: " "))\" data-date=\"\(BirthdayListFormat.isoDate(day.dayNumber))\">"
                    if !dayEvents.isEmpty {
                        svg += "<title>\(Formatting.xmlEscaped(([BirthdayListFormat.isoDate(day.dayNumber)] + dayEvents.map(\.label)).joined(separator: "\n")))</title>"
                        svg += "<circle class=\"dot\" cx=\"\(n(centerX))\" cy=\"\(n(centerY))\" r=\"10\"/>"
                    } else if classes.contains("today") {
                        svg += "<circle class=\"marker\" cx=\"\(n(centerX))\" cy=\"\(n(centerY))\" r=\"10\"/>"
                    }
                    svg += "<text class=\"number\" x=\"\(n(centerX))\" y=\"\(n(centerY + 3.5))\" text-anchor=\"middle\">\(day.dayOfMonth)</text></g>\n"
                }
            }
            svg += "</g>\n"
        }
        return svg + "</svg>\n"
    }

    private func header(width: Double, height: Double, title: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" class="family-calendar" viewBox="0 0 \(n(width)) \(n(height))" width="\(n(width))" height="\(n(height))" role="img" aria-labelledby="calendar-title">
        <title id="calendar-title">\(Formatting.xmlEscaped(title))</title>
        <style>
        \(CalendarSVGRenderer.styleSheet(theme))
        </style>
        <rect class="background" x="0" y="0" width="\(n(width))" height="\(n(height))"/>

        """
    }

    private func n(_ value: Double) -> String { Formatting.number(value) }
}
