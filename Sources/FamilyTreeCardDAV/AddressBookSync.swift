import FamilyTree
import FamilyTreeContacts
import Foundation

/// A tree kept in step with an address book on a CardDAV server (iCloud, Google, Fastmail,
/// Nextcloud, Radicale), as a contacts app re-syncs the phone's contacts on every launch.
///
/// `pull` reads what changed since the last pull (the collection's sync token, RFC 6578, when the
/// server has one, else each card's ETag) and merges the cards into the tree as a re-import does:
/// new cards added, changed ones updated, missing ones marked removed. `push` writes the fields
/// the tree changed (a completed birth year, a corrected name) back to each card with `If-Match`
/// on the ETag the pull saw, so a card edited on the phone meanwhile is never overwritten: the
/// server answers 412, the card is reported as a conflict, and the next pull merges it.
public struct AddressBookSync: Sendable {
    /// How a pull learnt what changed.
    public enum Method: String, Sendable {
        /// No earlier pull of this address book: every card was read.
        case first = "first pull"
        /// The sync token named what changed.
        case syncToken = "sync token"
        /// Every card's ETag was listed and compared.
        case etags = "ETags"
        /// The sync token (or ctag) had not moved: nothing was read.
        case unchanged = "nothing changed on the server"
    }

    /// What a pull moved over the network.
    public struct Transfer: Sendable, Equatable {
        /// How the changes were found.
        public var method: Method
        /// Cards whose text was read.
        public var cardsRead: Int
        /// Cards gone from the server since the last pull.
        public var cardsGone: Int
        /// Cards in the address book now.
        public var cardCount: Int
    }

    /// A pull's outcome: the tree and the state to write, and what happened.
    public struct PullResult: Sendable {
        /// The tree with the address book merged in.
        public var tree: TreeFile
        /// The state to keep for the next pull and push.
        public var state: AddressBookState
        /// Members added, updated, removed, unchanged.
        public var summary: ContactsMergeSummary
        /// Relations that could not be placed, and fields changed on both sides.
        public var report: [ContactsReportEntry]
        /// Problems reading the cards, each naming the card's address.
        public var warnings: [VCardWarning]
        /// What moved over the network.
        public var transfer: Transfer
    }

    /// A push's outcome. When `failure` is set the push stopped there: `tree` and `state` still hold
    /// what was written before it, and must be saved so that no write is repeated.
    public struct PushResult: Sendable {
        /// The tree, its members' card fingerprints brought up to date with what was written.
        public var tree: TreeFile
        /// The state with the written cards' new text and ETags.
        public var state: AddressBookState
        /// Cards written (or, in a dry run, that would be), with the fields written.
        public var written: [(name: String, fields: [MemberField])]
        /// Cards the server refused with 412: changed there since the last pull.
        public var conflicts: [String]
        /// Members that came from this address book and did not change.
        public var unchanged: Int
        /// The error that stopped the push, if one did.
        public var failure: CardDAVError?
    }

    /// The fields a push writes back.
    public static var pushedFields: [MemberField] { VCardRewrite.fieldOrder }

    private let client: CardDAVClient
    private let url: URL

    /// The most bytes one answer from the server may have unless a sync says otherwise: 512 MiB,
    /// an address book of some 5,000 cards with photos read in one answer.
    public static let defaultMaximumAnswerBytes = 512 << 20

    /// A sync with the address book at `url` (or the user's only address book on that server).
    /// `http:` is refused for anything but this machine unless `allowHTTP`. An answer over
    /// `maximumAnswerBytes` is refused as it arrives, and the pull or push changes nothing.
    public init(url: String, credentials: CardDAVCredentials, timeout: Double = 30, allowHTTP: Bool = false, maximumAnswerBytes: Int = defaultMaximumAnswerBytes) throws(CardDAVError) {
        self.url = try CardDAVClient.checkedURL(url, allowHTTP: allowHTTP)
        client = CardDAVClient(credentials: credentials, timeout: timeout, maximumAnswerBytes: maximumAnswerBytes)
    }

    /// Reads what changed in the address book since `state` and merges it into `tree`.
    /// Throws `CardDAVError` for the server, `FamilyTreeError` if the merged tree would be invalid.
    ///
    /// A first pull reads every card in one request (an initial `sync-collection`, or an
    /// `addressbook-query` on a server without sync tokens); a later one asks for the changes
    /// since its token, or compares every card's ETag when the server has no token (or forgot it),
    /// and reads the changed cards by `addressbook-multiget`. When nothing changed on the server
    /// the tree is returned as it is.
    public func pull(into tree: TreeFile, state previous: AddressBookState?) async throws -> PullResult {
        let known = previous.flatMap { $0.user == client.credentials.user && $0.addressBook == url.absoluteString ? $0 : nil }
        let (book, collection) = try await client.resolveAddressBook(url)
        var state = known ?? AddressBookState(addressBook: url.absoluteString, user: client.credentials.user)

        if let known, collection.syncToken != nil ? collection.syncToken == known.syncToken : (collection.ctag != nil && collection.ctag == known.ctag) {
            let transfer = Transfer(method: .unchanged, cardsRead: 0, cardsGone: 0, cardCount: known.cards.count)
            let summary = ContactsMergeSummary(added: 0, updated: 0, removed: 0, unchanged: known.cards.count)
            return PullResult(tree: tree, state: known, summary: summary, report: [], warnings: [], transfer: transfer)
        }

        var method = known == nil ? Method.first : .etags
        var changed: [CardDAVClient.Change] = []
        var gone: [String] = []
        var token = collection.syncToken
        // A state without a token (a server that had none then) compares ETags rather than read everything again.
        if collection.syncToken != nil, known == nil || known?.syncToken != nil,
           let changes = try await client.changes(book, since: known?.syncToken ?? "") {
            if known != nil { method = .syncToken }
            gone = changes.removed.filter { state.cards[$0] != nil }
            changed = changes.changed.filter { state.cards[$0.entry.href]?.etag != $0.entry.etag }
            token = changes.syncToken ?? collection.syncToken
            if known == nil {
                // A first read lists every card: any other in the state is gone.
                let present = Set(changes.changed.map(\.entry.href))
                gone = state.cards.keys.filter { !present.contains($0) }.sorted()
            }
        } else if known == nil {
            changed = try await client.allCards(book)
        } else {
            let entries = try await client.listCards(book)
            let present = Set(entries.map(\.href))
            gone = state.cards.keys.filter { !present.contains($0) }.sorted()
            changed = entries.filter { state.cards[$0.href]?.etag != $0.etag }.map { CardDAVClient.Change(entry: $0, vcard: nil) }
        }

        // Cards the answer named without their text are read in batches.
        let unread = changed.filter { $0.vcard == nil }.map(\.entry.href)
        let read = try await client.cards(book, hrefs: unread).map { CardDAVClient.Change(entry: $0.entry, vcard: $0.vcard) }
        for href in gone { state.cards[href] = nil }
        for change in changed + read {
            guard let vcard = change.vcard else { continue }
            state.cards[change.entry.href] = AddressBookState.Card(etag: change.entry.etag, vcard: vcard)
        }
        state.syncToken = token
        state.ctag = collection.ctag

        let base = known.map { Self.contacts(in: $0) }
        let imported = Self.contacts(in: state)
        let merged = try ContactsMerge.merge(imported, into: tree, base: base)
        let cardsRead = changed.count { $0.vcard != nil } + read.count
        return PullResult(
            tree: merged.tree, state: state, summary: merged.summary, report: imported.report + merged.report,
            warnings: imported.warnings,
            transfer: Transfer(method: method, cardsRead: cardsRead, cardsGone: gone.count, cardCount: state.cards.count)
        )
    }

    /// Writes the fields `tree` changed since the pull that made `state` back to their cards.
    /// `revision` is written as each card's `REV`; a dry run writes nothing and lists what it would.
    public func push(_ tree: TreeFile, state: AddressBookState, revision: String, dryRun: Bool = false) async throws -> PushResult {
        guard state.addressBook == url.absoluteString, state.user == client.credentials.user else {
            throw CardDAVError.badState(path: "the CardDAV state", reason: "it is for \(state.user) at \(state.addressBook), not \(client.credentials.user) at \(url.absoluteString); pull first")
        }
        let base = Self.contacts(in: state)
        var hrefOfUID: [String: String] = [:]
        for href in state.cards.keys.sorted() {
            guard let card = state.cards[href], let uid = VCardParser().parsed(card.vcard).first?.first("UID")?.text, !uid.isEmpty else { continue }
            if hrefOfUID[uid] == nil { hrefOfUID[uid] = href }
        }
        var baseOfUID: [String: Member] = [:]
        for member in base.document.members {
            if let uid = member.contact?.uid, baseOfUID[uid] == nil { baseOfUID[uid] = member }
        }

        var result = PushResult(tree: tree, state: state, written: [], conflicts: [], unchanged: 0, failure: nil)
        for member in tree.graph.members where !member.isRemoved {
            guard let uid = member.contact?.uid, let href = hrefOfUID[uid], let before = baseOfUID[uid], let card = state.cards[href] else { continue }
            let fields = VCardRewrite.changedFields(of: member, since: before, sexFromLabels: base.membersWithHintedSex.contains(before.id))
            guard !fields.isEmpty else {
                result.unchanged += 1
                continue
            }
            let name = member.fullName
            if dryRun {
                result.written.append((name, fields))
                continue
            }
            let text = VCardRewrite.card(card.vcard, replacing: Set(fields), from: member, revision: revision)
            switch await write(text, at: href, over: card, in: URL(string: state.addressBook) ?? url) {
            case .written(let stored):
                result.state.cards[href] = stored
                result.written.append((name, fields))
            case .changedOnServer:
                result.conflicts.append(name)
            case .failed(let error):
                result.failure = error
            }
            if result.failure != nil { break }
        }
        if !dryRun, !result.written.isEmpty {
            // The members' card fingerprints follow the cards as written, so the next pull sees no change.
            result.tree = try ContactsMerge.merge(Self.contacts(in: result.state), into: result.tree, base: base).tree
        }
        return result
    }

    private enum WriteOutcome {
        case written(AddressBookState.Card)
        case changedOnServer
        case failed(CardDAVError)
    }

    /// Writes one card if it is still as read; what the server keeps of it.
    private func write(_ text: String, at href: String, over card: AddressBookState.Card, in book: URL) async -> WriteOutcome {
        do {
            switch try await client.put(text, at: href, ifMatch: card.etag, in: book) {
            case .stored(let etag?):
                return .written(AddressBookState.Card(etag: etag, vcard: text))
            case .stored(nil):
                // The server did not say the new ETag (it may have changed the card): read it back.
                let stored = try await client.get(href, in: book)
                return .written(AddressBookState.Card(etag: stored.etag ?? "", vcard: stored.vcard))
            case .changedOnServer:
                return .changedOnServer
            }
        } catch {
            return .failed(error)
        }
    }

    /// The cards of `state`, in address order, as one import; warnings name each card's address.
    static func contacts(in state: AddressBookState) -> ContactsImport {
        var cards: [VCard] = []
        var warnings: [VCardWarning] = []
        for href in state.cards.keys.sorted() {
            var parser = VCardParser()
            cards += parser.parse(Array(state.cards[href]!.vcard.utf8))
            warnings += parser.warnings.map { VCardWarning(line: $0.line, "\(href): \($0.message)") }
        }
        return ContactsImport(cards: cards, warnings: warnings)
    }
}

extension VCardParser {
    /// The cards in `text`, warnings dropped.
    fileprivate func parsed(_ text: String) -> [VCard] {
        var parser = self
        return parser.parse(Array(text.utf8))
    }
}
