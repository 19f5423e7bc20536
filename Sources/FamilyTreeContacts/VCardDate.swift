import FamilyTree

/// Dates as contact apps write them in `BDAY`, `ANNIVERSARY` and `X-ABDATE`.
enum VCardDate {
    /// `1985-04-15`, `19850415`, `1985-04`, `1985`, `--0415`, `--04-15`, with or without a time
    /// (`20090808T1430-0500`); `omittedYear` is Apple's `X-APPLE-OMIT-YEAR` (the year written
    /// there means "no year"). `nil` for anything else (`---15`, free text).
    static func parse(_ text: String, omittedYear: String? = nil) -> PartialDate? {
        var value = Substring(text.trimmingSpaces)
        if let time = value.firstIndex(of: "T"), value.distance(from: value.startIndex, to: time) >= 4 { value = value[..<time] }
        if value.hasPrefix("--") {
            let digits = value.dropFirst(2).filter { $0 != "-" }
            guard digits.count == 4, digits.allSatisfy(\.isNumber), let month = Int(digits.prefix(2)), let day = Int(digits.suffix(2)),
                  let date = CalendarDate(month: month, day: day) else { return nil }
            return .exact(date)
        }
        var year: Int?, month: Int?, day: Int?
        if value.count == 8, value.allSatisfy(\.isNumber) {
            (year, month, day) = (Int(value.prefix(4)), Int(value.dropFirst(4).prefix(2)), Int(value.suffix(2)))
        } else {
            let parts = value.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...3).contains(parts.count), parts[0].count == 4, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
                  parts.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
            year = Int(parts[0])
            month = parts.count > 1 ? Int(parts[1]) : nil
            day = parts.count > 2 ? Int(parts[2]) : nil
        }
        if let omittedYear, let omitted = Int(omittedYear.trimmingSpaces), omitted == year {
            guard month != nil, day != nil else { return nil }
            year = nil
        }
        return CalendarDate(year: year, month: month, day: day).map(PartialDate.exact)
    }
}
