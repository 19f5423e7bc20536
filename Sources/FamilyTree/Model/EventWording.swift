/// Events, places and sources in words for people: a card's lines, a label's place.
public struct EventWording: Sendable {
    /// Source titles by id, for naming a citation.
    private let sourceTitles: [String: String]

    /// Wording that names citations by the titles of `sources`.
    public init(sources: [Source]) {
        var titles: [String: String] = [:]
        for source in sources where titles[source.id] == nil {
            if let title = [source.title, source.author, source.publication].compactMap({ $0?.trimmingSpaces }).first(where: { !$0.isEmpty }) {
                titles[source.id] = title
            }
        }
        sourceTitles = titles
    }

    /// "18 Dec 1799 in Mount Vernon, Fairfax, Virginia": the date (or `date`, the owner's, for a
    /// first birth or death) and the place, as far as there are.
    public func when(_ event: LifeEvent, date: String? = nil) -> String? {
        let day = date ?? event.date?.displayText ?? event.datePhrase
        // Jurisdictions left empty ("Brookline, , Norfolk County") are left out.
        let place = event.place?.jurisdictions.joined(separator: ", ")
        switch (day, place) {
        case (nil, nil): return nil
        case (let day?, nil): return day
        case (nil, let place?): return place.isEmpty ? nil : "in \(place)"
        case (let day?, let place?): return place.isEmpty ? day : "\(day) in \(place)"
        }
    }

    /// One line for an event: "Burial: 18 Dec 1799 in Mount Vernon — Washington family bible, p. 12".
    public func line(_ event: LifeEvent) -> String {
        var heading = event.kind.tag == "EVEN" || event.kind.tag == "FACT" ? (event.type ?? event.kind.description) : event.kind.description
        heading = heading.prefix(1).uppercased() + heading.dropFirst()
        var parts: [String] = []
        if let value = event.value?.trimmingSpaces, !value.isEmpty, value != "Y" { parts.append(value) }
        if let when = when(event) { parts.append(when) }
        var text = parts.isEmpty ? heading : "\(heading): \(parts.joined(separator: ", "))"
        let cited = sources(event.citations)
        if !cited.isEmpty { text += " — " + cited.joined(separator: "; ") }
        return text
    }

    /// The citations in words: the source's title (or its description) and the page; a citation
    /// of a source with no title and no page says nothing and is left out.
    public func sources(_ citations: [Citation]) -> [String] {
        citations.compactMap { citation in
            let title = citation.source.flatMap { sourceTitles[$0] } ?? citation.description
            let words = [title, citation.page].compactMap { $0?.trimmingSpaces }.filter { !$0.isEmpty }
            return words.isEmpty ? nil : words.joined(separator: ", ")
        }
    }

    /// Where a member was born (their first birth event's place), in a few words.
    public static func birthPlace(of member: Member) -> String? {
        member.events.first { $0.kind == .birth }?.place.map(\.shortName).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A member's occupation (their first), as written.
    public static func occupation(of member: Member) -> String? {
        member.events.first { $0.kind == .occupation }?.value.map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 }
    }
}
