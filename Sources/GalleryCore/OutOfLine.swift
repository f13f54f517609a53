/// Keeps a large value out of line, shared by copies until one of them
/// changes it (copy on write). `PhotoMetadata` is over 600 bytes inline; an
/// item is copied into its album, the timeline, its tags and the state, so at
/// 100,000 items each copy cost tens of megabytes. Boxed, a copy is a pointer.
@propertyWrapper
public struct OutOfLine<Value> {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    public init(wrappedValue: Value) { box = Box(wrappedValue) }

    /// The holder itself (`item.$metadata`): assigning one holder's to
    /// another's shares the box instead of copying the value into a new one.
    public var projectedValue: OutOfLine<Value> {
        get { self }
        set { self = newValue }
    }

    public var wrappedValue: Value {
        // Read in place: `item.metadata.captureDate` copies the date, not
        // the 600-byte value with a retain of each of its strings.
        _read { yield box.value }
        set {
            if isKnownUniquelyReferenced(&box) {
                box.value = newValue
            } else {
                box = Box(newValue)
            }
        }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}

// A box is only ever changed while one holder alone refers to it.
extension OutOfLine: @unchecked Sendable where Value: Sendable {}

extension OutOfLine: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.box === b.box || a.box.value == b.box.value }
}

extension OutOfLine: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(box.value) }
}

extension OutOfLine: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(box.value)
    }
}

extension OutOfLine: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        box = Box(try decoder.singleValueContainer().decode(Value.self))
    }
}
