/// A table of at most `capacity` entries, the oldest leaving first: ``AttestationTrust``'s and
/// ``ImportedPublicKeys``' bound on what they remember.
///
/// Entries are only added, replaced, or all forgotten at once (``removeAll()``); there is no
/// single removal, so the eviction order always holds exactly the keys of the table.
struct BoundedTable<Key: Hashable, Value> {
    let capacity: Int
    private var values: [Key: Value] = [:]
    /// The keys in the order they came, as a ring; `next` is the oldest once it is full.
    private var order: [Key] = []
    private var next = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    var count: Int { values.count }

    /// The value for `key`, or `nil` when the table has none.
    subscript(key: Key) -> Value? {
        values[key]
    }

    /// Adds `value` for `key`, evicting the oldest entry when full, or replaces the value of a
    /// key the table has (which keeps its place in the order).
    mutating func insert(_ value: Value, for key: Key) {
        guard values.updateValue(value, forKey: key) == nil else {
            return
        }
        if order.count < capacity {
            order.append(key)
        } else {
            values[order[next]] = nil
            order[next] = key
            next = (next + 1) % capacity
        }
    }

    mutating func removeAll() {
        values = [:]
        order = []
        next = 0
    }
}
