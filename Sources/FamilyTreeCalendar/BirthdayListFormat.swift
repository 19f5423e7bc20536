import FamilyTree

/// The `birthdays` listing as a table, CSV or JSON.
public enum BirthdayListFormat {
    /// How many days away a birthday is highlighted (seed 000 showed these in red).
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
            [entry.name, ageText(entry), entry.birthday.displayText, entry.countdown.description, entry.turning?.description ?? ""]
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

    /// RFC 4180 CSV with a header row.
    public static func csv(_ list: BirthdayList) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + text.replacingQuotes + "\"" : text
        }
        var output = "id,name,birthday,age,next_birthday,days_until,countdown,turns,deceased\r\n"
        for entry in list.entries {
            let cells = [entry.memberID, entry.name, entry.birthday.description, ageText(entry), isoDate(entry.nextBirthday),
                         "\(entry.countdown.days)", entry.countdown.description, entry.turning?.description ?? "", entry.isDeceased ? "true" : "false"]
            output += cells.map(field).joined(separator: ",") + "\r\n"
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

    /// YYYY-MM-DD of a day number.
    public static func isoDate(_ day: Int) -> String {
        let date = CalendarDate.date(fromDayNumber: day)
        return CalendarDate(year: date.year, month: date.month, day: date.day)!.description
    }
}

extension String {
    var replacingQuotes: String {
        var result = ""
        for character in self { result += character == "\"" ? "\"\"" : String(character) }
        return result
    }
}
