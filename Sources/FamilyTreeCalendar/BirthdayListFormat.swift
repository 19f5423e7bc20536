import FamilyTree

/// The `birthdays` listing as a table, CSV or JSON.
public enum BirthdayListFormat {
    /// How many days away a birthday is highlighted (in red on a terminal).
    public static let soonDays = 30

    /// The age column: "45", "~45", "†80" (age at death), or empty.
    static func ageText(_ entry: BirthdayEntry) -> String {
        guard let age = entry.age else { return entry.isDeceased ? "†" : "" }
        return entry.isDeceased ? "†\(age)" : age.description
    }

    /// A plain-text table; with `highlight`, countdowns of 30 days or less are red (ANSI colour).
    public static func table(_ list: BirthdayList, highlight: Bool) -> String {
        let header = ["NAME", "AGE", "BIRTHDAY", "NEXT", "TURNS"]
        let rows = list.entries.map { entry in
            [SafeText.terminalSafe(entry.name), ageText(entry), entry.birthday.displayText, entry.countdown.description, entry.turning?.description ?? ""]
        }
        var widths = header.map(\.count)
        for row in rows { for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) } }
        func line(_ cells: [String], soon: Bool) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                let padding = column == cells.count - 1 ? "" : String(repeating: " ", count: widths[column] - cell.count + 2)
                text += (highlight && soon && column == 3 ? "\u{1B}[31m\(cell)\u{1B}[0m" : cell) + padding
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        var output = line(header, soon: false)
        for (entry, row) in zip(list.entries, rows) { output += line(row, soon: entry.countdown.days <= soonDays) }
        return output
    }

    /// RFC 4180 CSV with a header row. A cell with a comma, quote or line break is quoted (a
    /// CR/LF inside a name cannot split the row); a name or id that a spreadsheet would run as a
    /// formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`.
    public static func csv(_ list: BirthdayList) -> String {
        func field(_ text: String) -> String {
            text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + text.replacingQuotes + "\"" : text
        }
        func userText(_ text: String) -> String {
            let cell = SafeText.terminalSafe(text, keepingLineBreaks: true)
            guard let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return field(cell) }
            return field("'" + cell)
        }
        var output = "id,name,birthday,age,next_birthday,days_until,countdown,turns,deceased\r\n"
        for entry in list.entries {
            let cells = [userText(entry.memberID), userText(entry.name), entry.birthday.description, ageText(entry), isoDate(entry.nextBirthday),
                         "\(entry.countdown.days)", entry.countdown.description, entry.turning?.description ?? "", entry.isDeceased ? "true" : "false"]
            output += cells.enumerated().map { $0.offset < 2 ? $0.element : field($0.element) }.joined(separator: ",") + "\r\n"
        }
        return output
    }

    /// A JSON array, keys sorted.
    public static func json(_ list: BirthdayList) -> String {
        JSONWriter.string(from: .array(list.entries.map { entry in
            var fields: [String: JSONValue] = [
                "id": .string(entry.memberID), "name": .string(entry.name), "birthday": .string(entry.birthday.description),
                "nextBirthday": .string(isoDate(entry.nextBirthday)), "daysUntil": .number("\(entry.countdown.days)"),
                "countdown": .string(entry.countdown.description), "deceased": .bool(entry.isDeceased),
                "age": entry.age.map { .number("\($0.years)") } ?? .null,
                "ageIsApproximate": .bool(entry.age?.isApproximate ?? false),
                "turns": entry.turning.map { .number("\($0.years)") } ?? .null,
            ]
            if entry.isDeceased { fields["turns"] = .null }
            return .object(fields)
        }))
    }

    /// YYYY-MM-DD of a day number; a year past 9999 (the day after 9999-12-31, which a calendar
    /// or a next birthday can reach) gets a fifth digit rather than a crash.
    public static func isoDate(_ day: Int) -> String {
        let date = CalendarDate.date(fromDayNumber: day)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(date.year, 4))-\(padded(date.month, 2))-\(padded(date.day, 2))"
    }
}

extension String {
    var replacingQuotes: String {
        var result = ""
        for scalar in unicodeScalars { if scalar == "\"" { result += "\"\"" } else { result.unicodeScalars.append(scalar) } }
        return result
    }
}
