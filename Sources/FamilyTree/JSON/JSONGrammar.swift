/// The pieces of RFC 8259's grammar that both JSON scanners check byte by byte (`JSONParser`,
/// which says what is wrong, and `JSONTape`, which only needs to know): one definition each.
enum JSONGrammar {
    /// Why a number is not one.
    enum NumberProblem: Error {
        case noDigits, leadingZero, noFractionDigits, noExponentDigits

        var message: String {
            switch self {
            case .noDigits: "invalid number"
            case .leadingZero: "invalid number: leading zero"
            case .noFractionDigits: "invalid number: digits expected after '.'"
            case .noExponentDigits: "invalid number: digits expected in exponent"
            }
        }
    }

    /// The end of the number that starts at `start` (a `-` or a digit).
    static func numberEnd(in bytes: [UInt8], from start: Int) -> Result<Int, NumberProblem> {
        var index = start
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        let integerDigits = digits()
        guard integerDigits > 0 else { return .failure(.noDigits) }
        if integerDigits > 1, bytes[index - integerDigits] == UInt8(ascii: "0") { return .failure(.leadingZero) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return .failure(.noFractionDigits) }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return .failure(.noExponentDigits) }
        }
        return .success(index)
    }

    /// The value of the four hex digits at `index`, or `nil` when they are not four hex digits.
    static func hex4(in bytes: [UInt8], at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
