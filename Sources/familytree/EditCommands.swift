import ArgumentParser
import FamilyTree
import Foundation

/// Opening a tree file for an edit and writing it back: the shared part of the editing commands.
enum TreeFileEditing {
    /// The tree in `path`; a missing or empty file is an empty tree (so a family can be built
    /// from nothing, command by command).
    static func open(_ path: String) throws -> TreeFile {
        if path != "-", !FileManager.default.fileExists(atPath: path) { return TreeFile.empty(file: path) }
        let bytes = try TreeFiles.read(path)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return TreeFile.empty(file: path) }
        return try TreeFile(json: bytes, file: path)
    }

    /// Applies `edits` and writes the file atomically; on any problem nothing is written.
    static func edit(_ path: String, _ edits: (TreeFile) throws -> [TreeEdit]) throws -> TreeFile {
        // Read, edit and write under the file's lock, so concurrent commands each see the last one's result.
        try TreeFileLock.holding(path) {
            var file = try open(path)
            try file.apply(try edits(file))
            try TreeFiles.write(file.text, to: path)
            return file
        }
    }
}

/// The options every editing command shares.
struct TreeFileOption: ParsableArguments {
    @Option(help: "The tree file (created by `add` when it does not exist).")
    var tree: String = "tree.json"
}

/// A name as first, middle and last: "Ada Lovelace", "Mary Ann Evans", or one word.
func nameParts(_ name: String) -> (first: String, middle: String?, last: String?) {
    let words = name.split(whereSeparator: \.isWhitespace).map(String.init)
    guard words.count > 1 else { return (words.first ?? "", nil, nil) }
    let middle = words.dropFirst().dropLast().joined(separator: " ")
    return (words[0], middle.isEmpty ? nil : middle, words.last)
}

/// An id made from a name: lower-case letters and digits joined by `-`, accents dropped
/// ("Zoë Ó Briain" is zoe-o-briain); letters of other scripts are kept as they are.
func memberID(forName name: String, taken: (String) -> Bool) -> String {
    var base = ""
    for character in name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased() {
        if character.isLetter || character.isNumber { base.append(character) } else if !base.isEmpty, base.last != "-" { base.append("-") }
    }
    while base.last == "-" { base.removeLast() }
    if base.isEmpty { base = "member" }
    var candidate = base
    var suffix = 2
    while taken(candidate) {
        candidate = "\(base)-\(suffix)"
        suffix += 1
    }
    return candidate
}

extension Sex: ExpressibleByArgument {}
extension ChildKind: ExpressibleByArgument {}

extension PartialDate: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a person to a tree file, as a child of their parents if you name them.",
        discussion: """
        NAME is the whole name ("Ada Lovelace": first name Ada, last name Lovelace; a middle name \
        goes between). Parents are ids or unique names; a child of two parents joins their union \
        (made when they have none). The file is created when it does not exist.

        Examples:
          familytree add "Ada Lovelace" --born 1815-12-10 --sex female --tree tree.json
          familytree add "Anne Isabella King" --born 1836-09-22 --child-of "Ada Lovelace" "William King"
          familytree add "Mei Carter" --child-of liesel james --kind adopted
        """
    )

    @Argument(help: "The person's whole name.")
    var name: String

    @Option(help: "Birthday: 1815-12-10, 1815-12, 1815, about 1815, ...; without a year --born=--12-10.")
    var born: PartialDate?

    @Option(help: "Date of death, in the same forms.")
    var died: PartialDate?

    @Option(help: "male, female, other or unknown.")
    var sex: Sex?

    @Option(help: "A nickname (shown by --label name-age).")
    var nickname: String?

    @Option(help: "Notes.")
    var notes: String?

    @Option(name: .customLong("child-of"), parsing: .upToNextOption, help: "One or two parents (ids or unique names).")
    var parents: [String] = []

    @Option(name: .customLong("child-of-union"), help: "The union (by id) whose child this is.")
    var union: String?

    @Option(help: "How the child is tied to the parents: birth, adopted, foster or step.")
    var kind: ChildKind = .birth

    @Option(help: "The new member's id (default: made from the name, e.g. ada-lovelace).")
    var id: String?

    @OptionGroup var file: TreeFileOption

    func validate() throws {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("the name must not be empty") }
        guard parents.count <= 2 else { throw ValidationError("--child-of takes one or two parents") }
        guard parents.isEmpty || union == nil else { throw ValidationError("give --child-of or --child-of-union, not both") }
    }

    func run() throws {
        var added: Member?
        _ = try TreeFileEditing.edit(file.tree) { tree in
            let graph = tree.graph
            let parentIDs = try parents.map { graph.members[try graph.resolveMember($0)].id }
            let parts = nameParts(name)
            var member = Member(
                id: id ?? memberID(forName: name) { graph.index(of: $0) != nil }, firstName: parts.first, middleName: parts.middle,
                lastName: parts.last, nickname: nickname, sex: sex, birthday: born, deathDate: died, notes: notes
            )
            member.isTopOfBloodline = false
            added = member
            return [.addMember(member, parents: parentIDs, union: union, kind: kind)]
        }
        if let added { Console.say("added \(added.fullName) (\(added.id)) to \(file.tree)\n") }
    }
}

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a person's names, dates, sex, nickname or notes.",
        discussion: """
        Only the fields given change; --clear FIELD removes one (middle-name, last-name, nickname, \
        sex, birthday, died, notes, color, photo). Every other field in the file is kept.

        Examples:
          familytree edit "Ada Lovelace" --nickname Ada --died 1852-11-27
          familytree edit ada --birthday 1815-12-10 --clear notes
        """
    )

    @Argument(help: "The person (an id or a unique name).")
    var member: String

    @Option(help: "First name.") var first: String?
    @Option(help: "Middle name.") var middle: String?
    @Option(help: "Last name.") var last: String?
    @Option(help: "Nickname.") var nickname: String?
    @Option(help: "male, female, other or unknown.") var sex: Sex?
    @Option(name: [.customLong("birthday"), .customLong("born")], help: "Birthday: 1815-12-10, 1815, about 1815, ...; without a year --birthday=--12-10.") var birthday: PartialDate?
    @Option(help: "Date of death.") var died: PartialDate?
    @Option(help: "Notes.") var notes: String?
    @Option(help: "Box colour, #RRGGBB.") var color: String?
    @Option(name: .customLong("event"), help: ArgumentHelp("An event to add: its kind, a date, and where (\"burial 1799-12-18 Mount Vernon, Virginia\"); a fact's value before \"in\" and the place (\"occupation Planter in Mount Vernon\"). Repeat for more.", valueName: "event"))
    var events: [String] = []

    @Option(name: .customLong("clear"), help: "A field to remove (repeat for more).")
    var cleared: [String] = []

    @OptionGroup var file: TreeFileOption

    static let clearable = ["middle-name", "last-name", "nickname", "sex", "birthday", "died", "notes", "color", "photo"]

    func validate() throws {
        for field in cleared where !Self.clearable.contains(field) {
            throw ValidationError("--clear takes one of \(Self.clearable.joined(separator: ", ")); not \(field)")
        }
    }

    func run() throws {
        func text(_ value: String?, _ field: String) -> FieldChange<String>? {
            cleared.contains(field) ? .clear : value.map(FieldChange.set)
        }
        var changes = MemberChanges(firstName: first)
        changes.middleName = text(middle, "middle-name")
        changes.lastName = text(last, "last-name")
        changes.nickname = text(nickname, "nickname")
        changes.notes = text(notes, "notes")
        changes.color = text(color, "color")
        changes.photo = cleared.contains("photo") ? .clear : nil
        changes.sex = cleared.contains("sex") ? .clear : sex.map(FieldChange.set)
        changes.birthday = cleared.contains("birthday") ? .clear : birthday.map(FieldChange.set)
        changes.deathDate = cleared.contains("died") ? .clear : died.map(FieldChange.set)
        changes.addedEvents = try events.map { text in
            guard let event = LifeEvent(describing: text) else {
                throw ValidationError("--event \"\(SafeText.terminalSafe(text))\": say its kind first (birth, baptism, burial, residence, occupation, emigration, event, ...), then a date and where")
            }
            return event
        }
        guard changes != MemberChanges() else { throw ValidationError("nothing to change: give a field (--nickname, --birthday, --event, ...) or --clear FIELD") }
        var edited: Member?
        let result = try TreeFileEditing.edit(file.tree) { tree in
            let id = tree.graph.members[try tree.graph.resolveMember(member)].id
            edited = tree.graph.member(id)
            return [.editMember(id, changes)]
        }
        if let id = edited?.id, let now = result.graph.member(id) { Console.say("edited \(now.fullName) (\(id)) in \(file.tree)\n") }
    }
}

struct MarryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marry",
        abstract: "Record a marriage or partnership of two people (a new union).",
        discussion: """
        Examples:
          familytree marry "Ada Lovelace" "William King" --date 1835-07-08
          familytree marry karl margarethe --id karl+margarethe
        """
    )

    @Argument(help: "One partner (an id or a unique name).") var first: String
    @Argument(help: "The other partner.") var second: String
    @Option(help: "The marriage date.") var date: PartialDate?
    @Option(help: "The union's id (default: FIRST+SECOND by id).") var id: String?
    @OptionGroup var file: TreeFileOption

    func run() throws {
        var names: (String, String) = ("", "")
        _ = try TreeFileEditing.edit(file.tree) { tree in
            let (a, b) = (try tree.graph.resolveMember(first), try tree.graph.resolveMember(second))
            names = (tree.graph.members[a].fullName, tree.graph.members[b].fullName)
            return [.marry(tree.graph.members[a].id, tree.graph.members[b].id, date: date, union: id)]
        }
        Console.say("married \(names.0) and \(names.1) in \(file.tree)\n")
    }
}

struct DivorceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "divorce",
        abstract: "Record the end of two people's marriage or partnership.",
        discussion: """
        Examples:
          familytree divorce karl siobhan --date 1947
        """
    )

    @Argument(help: "One partner (an id or a unique name).") var first: String
    @Argument(help: "The other partner.") var second: String
    @Option(help: "The divorce date (without it: recorded with the date unknown).") var date: PartialDate?
    @OptionGroup var file: TreeFileOption

    func run() throws {
        _ = try TreeFileEditing.edit(file.tree) { tree in
            let (a, b) = (try tree.graph.resolveMember(first), try tree.graph.resolveMember(second))
            return [.divorce(tree.graph.members[a].id, tree.graph.members[b].id, date: date)]
        }
        Console.say("recorded the divorce in \(file.tree)\n")
    }
}

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a person from a tree file (or, with --soft, hide them from charts).",
        discussion: """
        A person still named by a union or a cross-bloodline connection is not deleted unless \
        --with-references, which takes them out of those too (a union left with no partner goes). \
        --soft marks them removed instead: kept in the file, hidden from charts; --restore undoes it.

        Examples:
          familytree remove "Tom Carter" --with-references
          familytree remove tom --soft
        """
    )

    @Argument(help: "The person (an id or a unique name).") var member: String
    @Flag(help: "Also take the person out of unions and connections that name them.") var withReferences = false
    @Flag(help: "Mark the person removed (hidden from charts) instead of deleting them.") var soft = false
    @Flag(help: "Undo --soft: show the person again.") var restore = false
    @OptionGroup var file: TreeFileOption

    func validate() throws {
        if [soft, restore, withReferences].filter({ $0 }).count > 1 { throw ValidationError("choose one of --soft, --restore and --with-references") }
    }

    func run() throws {
        var name = ""
        _ = try TreeFileEditing.edit(file.tree) { tree in
            let member = tree.graph.members[try tree.graph.resolveMember(self.member)]
            name = "\(member.fullName) (\(member.id))"
            if soft || restore { return [.setRemoved(member.id, soft)] }
            return [.deleteMember(member.id, withReferences: withReferences)]
        }
        Console.say("\(soft ? "hid" : restore ? "restored" : "deleted") \(name) in \(file.tree)\n")
    }
}
