import Foundation

/// What the last pull saw of an address book, kept beside the tree (`family.carddav.json`): the
/// collection's sync token and ctag, and each card as it was read, with its ETag. The next pull
/// asks only for what changed; a push writes a card back only if its ETag is still this one, and
/// changes only the fields the tree changed, starting from this text.
public struct AddressBookState: Sendable, Codable, Equatable {
    /// One card as read from the server.
    public struct Card: Sendable, Codable, Equatable {
        /// The card's ETag when it was read (or written).
        public var etag: String
        /// The card's text.
        public var vcard: String
    }

    /// The address book's URL.
    public var addressBook: String
    /// The user the cards were read as.
    public var user: String
    /// The collection's sync token (RFC 6578), if the server has them.
    public var syncToken: String?
    /// The collection's ctag (a CalendarServer extension), if the server has one.
    public var ctag: String?
    /// The cards by their address on the server (`href`).
    public var cards: [String: Card]

    /// An empty state for `addressBook`.
    public init(addressBook: String, user: String) {
        self.addressBook = addressBook
        self.user = user
        cards = [:]
    }

    /// Reads a state file's bytes; `path` names it in errors.
    public init(json: [UInt8], path: String) throws(CardDAVError) {
        do {
            self = try JSONDecoder().decode(AddressBookState.self, from: Data(json))
        } catch {
            throw .badState(path: path, reason: "not a familytree CardDAV state file (\(error))")
        }
    }

    /// The state as JSON (keys sorted, so the same state is the same bytes).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and dictionaries of strings cannot fail.
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)).map { $0 + "\n" } ?? "{}\n"
    }

    /// The state file's conventional path beside a tree: `family.json` keeps `family.carddav.json`.
    public static func defaultPath(forTree tree: String) -> String {
        (tree.hasSuffix(".json") ? String(tree.dropLast(5)) : tree) + ".carddav.json"
    }
}
