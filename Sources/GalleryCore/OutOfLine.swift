/// Keeps a large value out of line, shared by copies until one of them
/// changes it (copy on write). `PhotoMetadata` is over 600 bytes inline; an
/// item is copied into its album, the timeline, its tags and the state, so at
/// 100,000 items each copy cost tens of megabytes. Boxed, a copy is a pointer.
@propertyWrapper
public struct OutOfLine<Value> {
    /// The value in the box's own allocation, read and written through its
    /// address: yielded from a class's stored `var`, every read of a field
    /// (`item.metadata.captureDate`) copied the whole value out first, with
    /// a retain and a release of each of its strings.
    private final class Box: ManagedBuffer<Void, Value> {
        static func holding(_ value: Value) -> Box {
            let box = unsafeDowncast(Box.create(minimumCapacity: 1) { _ in () }, to: Box.self)
            box.withUnsafeMutablePointerToElements { $0.initialize(to: value) }
            return box
        }

        /// Where the value lives (an object's storage does not move).
        var address: UnsafeMutablePointer<Value> { withUnsafeMutablePointerToElements { $0 } }

        deinit { _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) } }
    }

    private var box: Box

    public init(wrappedValue: Value) { box = Box.holding(wrappedValue) }

    /// The value's address: valid while this holder, or one sharing its box, lives.
    public var address: UnsafePointer<Value> { UnsafePointer(box.address) }

    /// The holder itself (`item.$metadata`): assigning one holder's to
    /// another's shares the box instead of copying the value into a new one.
    public var projectedValue: OutOfLine<Value> {
        get { self }
        set { self = newValue }
    }

    public var wrappedValue: Value {
        // Read in place: `item.metadata.captureDate` copies the date, not
        // the 600-byte value with a retain of each of its strings.
        unsafeAddress { UnsafePointer(box.address) }
        // Written in place when no other holder shares the box (copy on write).
        unsafeMutableAddress {
            if !isKnownUniquelyReferenced(&box) { box = Box.holding(box.address.pointee) }
            return box.address
        }
    }
}

// A box is only ever changed while one holder alone refers to it.
extension OutOfLine: @unchecked Sendable where Value: Sendable {}

extension OutOfLine: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.box === b.box || a.box.address.pointee == b.box.address.pointee }
}

extension OutOfLine: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(box.address.pointee) }
}

extension OutOfLine: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(box.address.pointee)
    }
}

extension OutOfLine: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        box = Box.holding(try decoder.singleValueContainer().decode(Value.self))
    }
}
