import FamilyTree
import Foundation

/// Turns members' photo paths into `data:` URLs, so the SVG can show them and still stand alone.
enum Photos {
    /// The largest photo embedded; larger files are left out with a warning (an SVG of many
    /// megabytes per face helps nobody).
    static let maximumBytes = 1_500_000

    /// `graph` with every photo given as a path replaced by its `data:` URL, and every `data:` URL
    /// checked. A path is read only from the tree file's folder or a folder in `allowedFolders`
    /// (after symbolic links, never through `..`): in a shared tree anyone may set a photo path,
    /// and rendering must not publish an image from elsewhere on this disk. A photo that cannot be
    /// used is left out with a warning on standard error; it never stops the drawing.
    /// With `dropAll`, every photo is left out.
    static func embedded(in graph: FamilyGraph, treePath: String, allowedFolders: [String] = [], dropAll: Bool = false) throws -> FamilyGraph {
        let folder = treePath == "-" ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            : URL(fileURLWithPath: treePath).deletingLastPathComponent()
        let roots = ([folder.path] + allowedFolders).compactMap(realPath)
        var changed = false
        var members = graph.members
        for index in members.indices {
            guard let photo = members[index].photo else { continue }
            let owner = "\(graph.location(ofMemberAt: index)): photo \"\(photo.prefix(80))\" of \(members[index].id)"
            if dropAll {
                members[index].photo = nil
                changed = true
                continue
            }
            if photo.hasPrefix("data:") {
                if let valid = ImageData.validatedDataURL(photo, maximumBytes: maximumBytes) {
                    if valid != photo {
                        members[index].photo = valid
                        changed = true
                    }
                } else {
                    Console.error("familytree: warning: \(owner) is not base64 of a PNG, JPEG, GIF or WebP image of at most \(maximumBytes / 1_000_000) MB; drawn without it")
                    members[index].photo = nil
                    changed = true
                }
                continue
            }
            changed = true
            members[index].photo = nil
            let candidate = photo.hasPrefix("/") ? photo : folder.appendingPathComponent(photo).path
            guard let resolved = realPath(candidate) else {
                Console.error("familytree: warning: \(owner) cannot be read; drawn without it")
                continue
            }
            guard roots.contains(where: { resolved.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
                Console.error("familytree: warning: \(owner) is outside the tree's folder (--photos FOLDER allows another); drawn without it")
                continue
            }
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: resolved)) else {
                Console.error("familytree: warning: \(owner) cannot be read; drawn without it")
                continue
            }
            guard data.count <= maximumBytes else {
                Console.error("familytree: warning: \(owner) is over \(maximumBytes / 1_000_000) MB; drawn without it")
                continue
            }
            guard let type = ImageData.mimeType(of: data) else {
                Console.error("familytree: warning: \(owner) is not a PNG, JPEG, GIF or WebP image; drawn without it")
                continue
            }
            members[index].photo = "data:\(type);base64,\(data.base64EncodedString())"
        }
        guard changed else { return graph }
        return try FamilyGraph(members: members, unions: graph.unions, crossBloodlineConnections: graph.crossBloodlineConnections)
    }

    /// The path with every symbolic link, `.` and `..` resolved, or `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
