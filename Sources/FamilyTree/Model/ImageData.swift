import Foundation

/// The images a chart may embed: PNG, JPEG, GIF and WebP, known by their first bytes, and `data:`
/// URLs that really hold one (valid base64, an image's header), so a page never carries a URL a
/// browser refuses or a file that only calls itself an image.
package enum ImageData {
    /// The MIME type of the image `bytes` begin, or `nil` when they begin none familytree embeds.
    package static func mimeType(of bytes: some Collection<UInt8>) -> String? {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    /// `url` as an embeddable `data:` URL (`data:<type>;base64,<payload>`, the type read from the
    /// image itself), or `nil` when it is not base64 of a PNG, JPEG, GIF or WebP image, or decodes
    /// to more than `maximumBytes`.
    package static func validatedDataURL(_ url: String, maximumBytes: Int = 1_500_000) -> String? {
        guard url.hasPrefix("data:image/"), let comma = url.firstIndex(of: ","),
              url[..<comma].lowercased().hasSuffix(";base64") else { return nil }
        let payload = url[url.index(after: comma)...]
        // Checked by a scan, not decoded whole: a chart checks every photo each time it is drawn.
        // Base64 is 4 characters for 3 bytes, with at most two `=` at the end.
        let characters = payload.utf8
        let padding = characters.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard characters.count % 4 == 0, padding <= 2, characters.count / 4 * 3 - padding <= maximumBytes,
              characters.dropLast(padding).allSatisfy(isBase64Digit),
              let head = Data(base64Encoded: String(payload.prefix(16))), let type = mimeType(of: head) else { return nil }
        return "data:\(type);base64,\(payload)"
    }

    private static func isBase64Digit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "/"): true
        default: false
        }
    }
}
