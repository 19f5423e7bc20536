/// The largest inputs familytree accepts. Past each limit a reader stops with a clear error
/// instead of taking all the memory a hostile file asks for.
public enum InputLimits {
    /// The largest file (tree.json, GEDCOM, vCard) or standard input read: 1 GiB. A tree of a
    /// million members is about 220 MB of tree.json.
    public static let fileBytes = 1 << 30

    /// The largest file inside an archive (`gedcom.ged` in a GEDZIP), uncompressed: 512 MiB.
    public static let archiveMemberBytes = 512 << 20

    /// The most an archive may expand to in all, and the most it may expand by: a compression
    /// ratio past 200 to 1 is a zip bomb, not a family tree (GEDCOM compresses about 10 to 1).
    public static let archiveExpansionRatio = 200

    /// The deepest nesting of JSON arrays and objects read (tree.json needs four levels).
    public static let jsonDepth = 512

    /// The largest card in a vCard file, photos included: 32 MiB.
    public static let vCardBytes = 32 << 20

    /// A size in words: "1 GiB", "512 MiB".
    public static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
    }
}
