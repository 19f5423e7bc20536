/// The order of siblings (and of a person's unions): by date, earliest first.
///
/// The rule: a date sorts by the earliest day it can be, then by precision (a full date before a
/// month, a month before a year, an exact date before an approximate one). Items whose date has no
/// year keep their place in the file; the dated items are sorted among the remaining places.
/// Ties keep the file's order (the sort is stable).
public enum SiblingOrder {
    /// `items` reordered by `date`, following the rule above.
    public static func sorted<Item>(_ items: [Item], by date: (Item) -> PartialDate?) -> [Item] {
        var slots: [Int] = []
        var keyed: [(key: PartialDate.SortKey, position: Int)] = []
        for (position, item) in items.enumerated() {
            if let key = date(item)?.sortKey {
                slots.append(position)
                keyed.append((key, position))
            }
        }
        guard keyed.count > 1 else { return items }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        var result = items
        for (slot, entry) in zip(slots, keyed) { result[slot] = items[entry.position] }
        return result
    }
}
