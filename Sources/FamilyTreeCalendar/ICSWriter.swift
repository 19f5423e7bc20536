import FamilyTree

/// Writes birthdays and anniversaries as an iCalendar file (RFC 5545): one all-day event per
/// person or couple, recurring every year.
///
/// UIDs derive from member and union ids, so importing a newer file updates the events instead of
/// duplicating them. February 29 recurs on the last day of February (`feb28`) or on the 60th day of
/// the year (`mar1`: March 1 in common years), so calendar programs keep it without help.
public struct ICSWriter: Sendable {
    /// The calendar's name (`X-WR-CALNAME`).
    public var calendarName: String

    /// A writer for a calendar named `calendarName`.
    public init(calendarName: String = "Family birthdays") {
        self.calendarName = calendarName
    }

    /// The calendar text with CRLF line ends; `today` (a day number) stamps the events.
    public func write(_ events: FamilyEvents, today: Int) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//familytree//familytree calendar//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:" + ICSWriter.escaped(calendarName),
        ]
        let stamp = ICSWriter.basicDate(today) + "T000000Z"
        let thisYear = CalendarDate.date(fromDayNumber: today).year
        // Someone born longer ago than anyone lives is not celebrated any more.
        for source in events.sources where (source.lastYear ?? thisYear) >= thisYear {
            // The first occurrence: the day itself when its year is known, else this year's.
            let year = source.date.anchor.year ?? thisYear
            let start = source.yearly.dayNumber(inYear: year, leapDay: events.leapDay)
            let startText = ICSWriter.basicDate(start)
            // iCalendar dates have four-digit years: an event on 9999-12-31 ends by its duration.
            let end = CalendarDate.date(fromDayNumber: start + 1).year <= 9999 ? "DTEND;VALUE=DATE:" + ICSWriter.basicDate(start + 1) : "DURATION:P1D"
            let summary = source.kind == .birthday ? "\(source.names)'s birthday" : "\(source.names)'s wedding anniversary"
            var description = source.kind == .birthday ? "\(source.fullNames), born \(source.date.displayText)" : "\(source.fullNames), married \(source.date.displayText)"
            if source.date.anchor.year == nil { description += " (year unknown)" }
            var rule = "RRULE:FREQ=YEARLY"
            if source.yearly.isLeapDay {
                rule += events.leapDay == .february28 ? ";BYMONTH=2;BYMONTHDAY=-1" : ";BYYEARDAY=60"
            }
            // Only while the person may be living.
            if let last = source.lastYear, last <= 9999 { rule += ";UNTIL=\(last)1231" }
            lines += [
                "BEGIN:VEVENT",
                "UID:\(ICSWriter.escaped(source.sourceID))-\(source.kind.rawValue)@familytree",
                "DTSTAMP:\(stamp)",
                "DTSTART;VALUE=DATE:\(startText)",
                end,
                rule,
                "SUMMARY:" + ICSWriter.escaped(summary),
                "DESCRIPTION:" + ICSWriter.escaped(description),
                "CATEGORIES:" + (source.kind == .birthday ? "Birthday" : "Anniversary"),
                "TRANSP:TRANSPARENT",
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(ICSWriter.folded).joined()
    }

    /// YYYYMMDD of a day number.
    static func basicDate(_ day: Int) -> String {
        BirthdayListFormat.isoDate(day).filter { $0 != "-" }
    }

    /// TEXT escaping: backslash, semicolon, comma and line breaks (CR, LF, CRLF, U+2028...) as
    /// `\n`; other control characters are left out. Scalar by scalar, so a combining mark after a
    /// backslash cannot hide it.
    static func escaped(_ text: String) -> String {
        SafeText.lines(text).map { line in
            var result = ""
            for scalar in line.unicodeScalars {
                switch scalar {
                case "\\": result += "\\\\"
                case ";": result += "\\;"
                case ",": result += "\\,"
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result
        }.joined(separator: "\\n")
    }

    /// A content line folded at 75 octets (never inside a UTF-8 character), ending in CRLF.
    static func folded(_ line: String) -> String {
        var output = ""
        var count = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let width = String(scalar).utf8.count
            if count + width > limit {
                output += "\r\n "
                count = 0
                limit = 74 // the leading space counts
            }
            output.unicodeScalars.append(scalar)
            count += width
        }
        return output + "\r\n"
    }
}
