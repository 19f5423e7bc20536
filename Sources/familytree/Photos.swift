import FamilyTree
import FamilyTreeFiles
import Foundation

/// Reads members' photo files into `data:` URLs, so a chart can show them and still stand alone.
enum Photos {
    /// The largest photo embedded; larger files are left out with a warning (an SVG of many
    /// megabytes per face helps nobody).
    static let maximumBytes = 1_500_000

    /// The photo of the member at `index` in `graph` as a chart embeds it: a `data:` URL checked
    /// (base64 of a real image), or a path read into one. A path is read only from the tree file's
    /// folder or a folder in `allowedFolders` (after symbolic links, never through `..`): in a
    /// shared tree anyone may set a photo path, and rendering must not publish an image from
    /// elsewhere on this disk. A photo that cannot be used is `nil`, with a warning on standard
    /// error; it never stops the drawing.
    static func resolved(_ photo: String, ofMemberAt index: Int, in graph: FamilyGraph, from folders: Folders) -> String? {
        let owner = "\(graph.location(ofMemberAt: index)): photo \"\(photo.prefix(80))\" of \(graph.members[index].id)"
        if photo.hasPrefix("data:") {
            guard let valid = ImageData.validatedDataURL(photo, maximumBytes: maximumBytes) else {
                Console.error("familytree: warning: \(owner) is not base64 of a PNG, JPEG, GIF or WebP image of at most \(maximumBytes / 1_000_000) MB; drawn without it")
                return nil
            }
            return valid
        }
        let candidate = photo.hasPrefix("/") ? photo : folders.base + "/" + photo
        guard let resolved = realPath(candidate) else {
            Console.error("familytree: warning: \(owner) cannot be read; drawn without it")
            return nil
        }
        guard folders.roots.contains(where: { resolved.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            Console.error("familytree: warning: \(owner) is outside the tree's folder (--photos FOLDER allows another); drawn without it")
            return nil
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: resolved)) else {
            Console.error("familytree: warning: \(owner) cannot be read; drawn without it")
            return nil
        }
        guard data.count <= maximumBytes else {
            Console.error("familytree: warning: \(owner) is over \(maximumBytes / 1_000_000) MB; drawn without it")
            return nil
        }
        guard let type = ImageData.mimeType(of: data) else {
            Console.error("familytree: warning: \(owner) is not a PNG, JPEG, GIF or WebP image; drawn without it")
            return nil
        }
        return "data:\(type);base64,\(data.base64EncodedString())"
    }

    /// Where photo files may be read from, resolved once for a whole chart.
    struct Folders {
        /// The folder relative paths start from: the tree file's (the working folder for `-`), as
        /// written (`realPath` makes a path through it absolute).
        let base: String
        /// The folders a photo must lie in, with their links resolved: `base` and those named.
        let roots: [String]

        init(treePath: String, allowed: [String]) {
            base = treePath == "-" ? "." : FileName.folder(of: treePath)
            roots = ([base] + allowed).compactMap(Photos.realPath)
        }
    }

    /// The path with every symbolic link, `.` and `..` resolved, or `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
