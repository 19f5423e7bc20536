import FamilyTree

/// Text helpers shared by the renderers: fixed number format and XML escaping.
enum Formatting {
    /// A coordinate with at most one decimal, without a trailing ".0": stable across platforms.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// `text` safe inside XML character data and quoted attributes (`SafeText.xmlEscaped`).
    static func xmlEscaped(_ text: String) -> String {
        SafeText.xmlEscaped(text)
    }

    /// An XML id (NCName) for a member id: other characters become `_XX_` hex escapes.
    static func xmlID(prefix: String, _ id: String) -> String {
        var result = prefix
        for scalar in id.unicodeScalars {
            let isNameCharacter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
            result += isNameCharacter ? String(scalar) : "_\(String(scalar.value, radix: 16))_"
        }
        return result
    }
}
