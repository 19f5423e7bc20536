import FamilyTree

/// Something the importer noticed and repaired or left out, with the line it concerns.
public struct GEDCOMWarning: Sendable, Hashable, CustomStringConvertible {
    /// What a warning is about.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case encoding, syntax, name, sex, date, reference, link, family, cycle
    }

    /// What the warning is about.
    public var kind: Kind
    /// The line it is about, when there is one.
    public var line: Int?
    /// The warning in words.
    public var message: String

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// How surnames written in capitals ("KENNEDY", a common GEDCOM habit) come in.
public enum SurnameCase: String, Sendable, Hashable, CaseIterable {
    /// As the file writes them.
    case asIs = "as-is"
    /// In title case ("Kennedy", "O'Brien"); surnames in mixed case are left as written.
    case title
}

/// Errors that stop a GEDCOM import.
public enum GEDCOMError: Error, Sendable, Hashable, CustomStringConvertible {
    case notGEDCOM(String)

    public var description: String {
        switch self {
        case .notGEDCOM(let reason): "not a GEDCOM file: \(reason)"
        }
    }
}

/// A GEDCOM file read into familytree's model.
public struct GEDCOMImport: Sendable {
    /// The people and families as a tree document (ids are the GEDCOM xrefs without `@`).
    public var document: TreeDocument
    /// Everything read but not kept, and why.
    public var warnings: [GEDCOMWarning]
    /// The character encoding the file was read in.
    public var encoding: String
    /// `HEAD.GEDC.VERS`, when the file says.
    public var version: String?
    /// How many people (INDI records) were imported.
    public var peopleCount: Int { document.members.count }
    /// How many families (FAM records) were imported.
    public var familyCount: Int { document.unions.count }

    /// Reads GEDCOM 5.5.1, 7.0 or older files; never crashes on bad input. Links that disagree
    /// (a family lists a child whose record does not name the family, and the like) are repaired
    /// from either side with a warning; a record pointing to a missing one loses that pointer.
    public init(bytes: [UInt8], surnameCase: SurnameCase = .asIs) throws(GEDCOMError) {
        let decoded = GEDCOMEncoding.decode(bytes)
        var warnings = decoded.warnings.map { GEDCOMWarning(kind: .encoding, line: nil, message: $0) }
        let parsed = GEDCOMParser.parse(decoded.text)
        warnings += parsed.warnings.map { GEDCOMWarning(kind: .syntax, line: $0.line, message: $0.message) }
        guard let head = parsed.records.first, head.tag == "HEAD" else {
            throw .notGEDCOM(parsed.records.isEmpty ? "no records" : "it does not start with 0 HEAD (line \(parsed.records[0].line))")
        }
        var builder = GEDCOMTreeBuilder(records: parsed.records, surnameCase: surnameCase)
        builder.build()
        warnings += builder.warnings
        document = builder.document
        self.warnings = warnings
        encoding = decoded.encoding
        version = head.first("GEDC")?.first("VERS")?.value.trimmingSpaces
    }
}
