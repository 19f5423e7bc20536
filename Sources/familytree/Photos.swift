import FamilyTree
import Foundation

/// Turns members' photo paths into `data:` URLs, so the SVG can show them and still stand alone.
enum Photos {
    /// The largest photo embedded; larger files are left out with a warning (an SVG of many
    /// megabytes per face helps nobody).
    static let maximumBytes = 1_500_000

    /// `graph` with every photo given as a path (relative to the tree file's folder, or absolute)
    /// replaced by its `data:` URL. A photo that cannot be read is left out with a warning on
    /// standard error; it never stops the drawing.
    /// With `dropAll`, every photo is left out.
    static func embedded(in graph: FamilyGraph, treePath: String, dropAll: Bool = false) throws -> FamilyGraph {
        let folder = treePath == "-" ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            : URL(fileURLWithPath: treePath).deletingLastPathComponent()
        var changed = false
        var members = graph.members
        for index in members.indices {
            guard let photo = members[index].photo, dropAll || !photo.hasPrefix("data:") else { continue }
            changed = true
            if dropAll {
                members[index].photo = nil
                continue
            }
            let url = photo.hasPrefix("/") ? URL(fileURLWithPath: photo) : folder.appendingPathComponent(photo)
            members[index].photo = nil
            guard let data = try? Data(contentsOf: url) else {
                Console.error("familytree: warning: \(graph.location(ofMemberAt: index)): photo \"\(photo)\" of \(members[index].id) cannot be read; drawn without it")
                continue
            }
            guard data.count <= maximumBytes else {
                Console.error("familytree: warning: photo \"\(photo)\" of \(members[index].id) is over \(maximumBytes / 1_000_000) MB; drawn without it")
                continue
            }
            guard let type = imageType(of: data) else {
                Console.error("familytree: warning: photo \"\(photo)\" of \(members[index].id) is not a PNG, JPEG, GIF or WebP image; drawn without it")
                continue
            }
            members[index].photo = "data:\(type);base64,\(data.base64EncodedString())"
        }
        guard changed else { return graph }
        return try FamilyGraph(members: members, unions: graph.unions, crossBloodlineConnections: graph.crossBloodlineConnections)
    }

    /// The MIME type from the file's first bytes.
    static func imageType(of data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }
}
