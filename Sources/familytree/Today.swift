import ArgumentParser
import FamilyTree
import Foundation

/// The day commands compute ages and countdowns on.
enum Today {
    /// `--today YYYY-MM-DD` as a day number, or the current date (UTC) without it. Only the CLI
    /// reads the clock; the library takes the day as a value.
    static func dayNumber(_ text: String?) throws(ValidationError) -> Int {
        guard let text else { return Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)) }
        guard case .exact(let date)? = PartialDate(text), date.isComplete, let day = date.earliestDayNumber else {
            throw ValidationError("--today takes a date as YYYY-MM-DD, for example 2026-12-01; \"\(text)\" is not one")
        }
        return day
    }
}
