/// What a member imported from the user's contacts keeps of the card: the card's identity, for
/// re-importing, and the labelled details the apps show (phones, e-mails and addresses).
///
/// In tree.json it is the member's `contact` object.
public struct ContactDetails: Sendable, Hashable {
    /// The card's `UID`, or, for a card without one, a key made from its name (`name:...`).
    public var uid: String
    /// The card's `REV`, as written.
    public var revision: String?
    /// A hash of what the card put on the member: a re-import updates the member only when it
    /// changes, so edits made in the tree to a card that did not change are kept.
    public var fingerprint: String?
    /// Phone numbers with their labels (home, mobile, ...).
    public var phones: [LabeledValue]
    /// E-mail addresses with their labels.
    public var emails: [LabeledValue]
    /// Postal addresses with their labels, each as one line.
    public var addresses: [LabeledValue]
    /// Dates the card holds beside the birthday (an anniversary with no spouse to put it on, custom dates).
    public var dates: [LabeledValue]
    /// A photo the card links to rather than carries (it is not fetched).
    public var photoURL: String?

    /// Contact details as given.
    public init(
        uid: String, revision: String? = nil, phones: [LabeledValue] = [], emails: [LabeledValue] = [],
        addresses: [LabeledValue] = [], dates: [LabeledValue] = [], photoURL: String? = nil
    ) {
        self.uid = uid
        self.revision = revision
        self.phones = phones
        self.emails = emails
        self.addresses = addresses
        self.dates = dates
        self.photoURL = photoURL
    }
}

/// A value with the label a contacts app shows beside it: `Mobile`, `Work`, `Home`, or the user's own.
public struct LabeledValue: Sendable, Hashable {
    /// The label as the card wrote it ("home", "work", "cell").
    public var label: String
    /// The value (a number, an address).
    public var value: String

    /// A value with its label.
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}
