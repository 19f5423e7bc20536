import FamilyTree

/// Reads what genealogists record beyond names and links (events with their places, notes and
/// sources; source records) from GEDCOM structures, and keeps everything else as written.
///
/// Whatever is read into a field is taken out of the structure; the rest stays with its owner as
/// a `RecordedStructure`. Where a structure familytree writes itself (a name, a date, a family
/// link) has substructures it does not model, they are kept as a structure of the same tag with no
/// value (for a name or a date) or with the same pointer (for a family link), and the exporter
/// writes them back under the line it makes.
enum GEDCOMStructures {
    /// A structure as written.
    static func recorded(_ record: GEDCOMRecord) -> RecordedStructure {
        RecordedStructure(tag: record.tag, xref: record.xref, value: record.value.isEmpty ? nil : record.value, children: record.children.map(recorded))
    }

    /// The substructures of a line familytree writes itself that it does not read, as a structure
    /// of the same tag (with `value`, to match a pointer), or nothing when there are none.
    static func complement(_ record: GEDCOMRecord, except read: Set<String>, value: String? = nil) -> RecordedStructure? {
        let rest = record.children.filter { !read.contains($0.tag) }
        guard !rest.isEmpty else { return nil }
        return RecordedStructure(tag: record.tag, value: value, children: rest.map(recorded))
    }

    /// An event or attribute structure (`BURI`, `OCCU`, `EVEN`, ...). For a person's first birth
    /// and death and a family's first marriage and divorce, whose dates the member or union holds,
    /// `readingDate` is false: the date is left to them (and its own substructures kept here).
    static func event(_ record: GEDCOMRecord, readingDate: Bool = true) -> LifeEvent {
        var event = LifeEvent(EventKind(tag: record.tag))
        let value = record.value.trimmingSpaces
        if !value.isEmpty { event.value = record.value }
        var rest: [RecordedStructure] = []
        var readOnce = TagsSeen()
        for child in record.children {
            // Each field is read from its first structure; a second (rare, and invalid) is kept.
            let first = readOnce.insert(child.tag)
            switch child.tag {
            case "TYPE" where first && child.children.isEmpty:
                event.type = child.value
            case "DATE" where first:
                if readingDate { (event.date, event.datePhrase) = date(child) }
                if GEDCOMTreeBuilder.dateText(child).isEmpty {
                    // A date written with nothing in it is kept as it is.
                    rest.append(RecordedStructure(tag: "DATE", children: child.children.map(recorded)))
                } else if let extra = complement(child, except: dateReads(child)) {
                    rest.append(extra)
                }
            case "SDATE" where first && !readingDate && record.tag == "BIRT" && child.children.isEmpty:
                // The member's sort date.
                continue
            case "PLAC" where first:
                event.place = place(child)
            case "NOTE" where child.pointer == nil && child.children.isEmpty && !child.value.isEmpty:
                event.notes.append(child.value)
            case "SOUR":
                event.citations.append(citation(child))
            default:
                rest.append(recorded(child))
            }
        }
        event.recorded = rest
        return event
    }

    /// What of a DATE structure the date reads: its PHRASE, when the payload is empty.
    static func dateReads(_ record: GEDCOMRecord) -> Set<String> {
        record.value.trimmingSpaces.isEmpty ? ["PHRASE"] : []
    }

    /// Whether an event read with `readingDate` false says more than its owner's date: without
    /// anything more, the owner's date stands for it.
    static func saysMore(_ event: LifeEvent, than record: GEDCOMRecord) -> Bool {
        event.value != nil || event.type != nil || event.place != nil || !event.notes.isEmpty || !event.citations.isEmpty
            || !event.recorded.isEmpty || record.first("DATE") == nil
    }

    /// A date, or its text as written when it is no date familytree can place.
    static func date(_ record: GEDCOMRecord) -> (PartialDate?, String?) {
        let text = GEDCOMTreeBuilder.dateText(record)
        guard !text.isEmpty else { return (nil, nil) }
        if let date = GEDCOMDate.parse(text) { return (date, nil) }
        return (nil, text)
    }

    static func place(_ record: GEDCOMRecord) -> Place {
        var place = Place(name: record.value)
        var rest: [RecordedStructure] = []
        for child in record.children {
            switch child.tag {
            case "FORM" where place.form == nil && child.children.isEmpty:
                place.form = child.value
            case "MAP" where place.latitude == nil && place.longitude == nil:
                place.latitude = child.first("LATI")?.value
                place.longitude = child.first("LONG")?.value
                if let extra = complement(child, except: ["LATI", "LONG"]) { rest.append(extra) }
            default:
                rest.append(recorded(child))
            }
        }
        place.recorded = rest
        return place
    }

    /// A citation: a pointer to a source record, or (5.5.1) a source described in place.
    static func citation(_ record: GEDCOMRecord) -> Citation {
        var citation = Citation(source: record.pointer)
        // A void pointer cites no record; any other value names a source in place (5.5.1).
        if citation.source == nil, !record.value.isEmpty, record.value.trimmingSpaces.uppercased() != "@VOID@" { citation.description = record.value }
        var rest: [RecordedStructure] = []
        var readOnce: Set<String> = []
        for child in record.children {
            let first = readOnce.insert(child.tag).inserted
            switch child.tag {
            case "PAGE" where first && child.children.isEmpty:
                citation.page = child.value
            case "QUAY" where first && child.children.isEmpty && Int(child.value.trimmingSpaces).map({ (0...3).contains($0) }) == true:
                citation.quality = Int(child.value.trimmingSpaces)
            case "DATA" where first && child.children.count == 1 && child.children[0].tag == "TEXT" && child.children[0].children.isEmpty && child.value.isEmpty:
                citation.text = child.children[0].value
            default:
                rest.append(recorded(child))
            }
        }
        citation.recorded = rest
        return citation
    }

    /// A SOUR record.
    static func source(_ record: GEDCOMRecord, id: String) -> Source {
        var source = Source(id: id)
        var rest: [RecordedStructure] = []
        var readOnce: Set<String> = []
        for child in record.children {
            let first = readOnce.insert(child.tag).inserted && child.children.isEmpty
            switch child.tag {
            case "TITL" where first: source.title = child.value
            case "AUTH" where first: source.author = child.value
            case "PUBL" where first: source.publication = child.value
            case "TEXT" where first: source.text = child.value
            default: rest.append(recorded(child))
            }
        }
        source.recorded = rest
        return source
    }

    /// Whether `record` is an extension event (`_MILT`, `_DEG`): an extension tag with a date or a place.
    static func isExtensionEvent(_ record: GEDCOMRecord) -> Bool {
        record.tag.hasPrefix("_") && record.tag.count > 1 && EventKind(word: record.tag) != nil && (record.first("DATE") != nil || record.first("PLAC") != nil)
    }

    /// Whether `tag` is an individual event or attribute familytree reads into `events`.
    static func isIndividualEvent(_ tag: String) -> Bool {
        EventKind.isKnown(tag) && !familyOnly.contains(tag)
    }

    /// Whether `tag` is a family event or attribute familytree reads into a union's `events`.
    static func isFamilyEvent(_ tag: String) -> Bool {
        familyOnly.contains(tag) || ["CENS", "EVEN", "NCHI", "RESI", "FACT"].contains(tag)
    }

    private static let familyOnly: Set<String> = ["ANUL", "DIV", "DIVF", "ENGA", "MARB", "MARC", "MARL", "MARR", "MARS"]
}
