/// What a file's name says, read from the name alone.
///
/// Foundation's `URL(fileURLWithPath:)` asks the disk whether a relative path is a folder and
/// joins it to the working folder, and its first use in a process costs about 0.3 ms; a command
/// that only needs the extension of `-o tree.svg` pays neither here.
public enum FileName {
    /// The extension of the path's last component as `URL.pathExtension` gives it: `tree.SVG`
    /// gives `SVG`, `.svg` (a hidden file), `tree.` and `a b.s vg` (a space) give nothing.
    public static func pathExtension(_ path: String) -> Substring {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        let found = name[name.index(after: dot)...]
        return found.contains(" ") ? "" : found
    }

    /// The path's last component, trailing slashes aside (`photos/` gives `photos`).
    public static func lastComponent(_ path: String) -> Substring {
        var name = path[...]
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        guard let slash = name.lastIndex(of: "/"), name != "/" else { return name }
        return name[name.index(after: slash)...]
    }

    /// The folder the path's last component lies in, as written: `photos/ada.jpg` gives `photos`,
    /// `/ada.jpg` gives `/`, and a bare name gives `.`.
    public static func folder(of path: String) -> String {
        var name = path[...]
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        guard let slash = name.lastIndex(of: "/") else { return "." }
        return slash == name.startIndex ? "/" : String(name[..<slash])
    }
}
