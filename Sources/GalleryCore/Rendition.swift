/// A rendition's name as `KeyedRenditionSpec.relativePath` makes it: the
/// first 20 hex digits of a hash (80 bits). With the rendition's size and
/// format that is its whole path, `media/NN/NAME-WxH.EXT`, spelled when asked
/// for: a path held per rendition (three or four of them per photo) was more
/// than anything else an item holds.
public struct RenditionName: Hashable, Sendable {
    /// The hash's first 16 digits.
    let high: UInt64
    /// Its next 4 (the top 16 bits of the rest).
    let low: UInt16

    /// The name of `digest` (its first 20 digits).
    public init(_ digest: StableHash.Digest) {
        high = digest.high
        low = UInt16(truncatingIfNeeded: digest.low >> 48)
    }

    /// The `index`th hex digit of the name (0–19).
    private func hexDigit(_ index: Int) -> UInt8 {
        let nibble = index < 16 ? UInt8((high >> UInt64(60 - 4 * index)) & 0xF) : UInt8((low >> UInt16(12 - 4 * (index - 16))) & 0xF)
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The longest path `withPath` writes: `media/NN/` (9), the name (20), `-WxH`
    /// (two 64-bit numbers of up to 20 digits, a sign each, and the x: 44),
    /// the dot and an extension of up to 16 bytes.
    static let longestPath = 9 + 20 + 44 + 1 + 16

    /// The path (relative to the site root) of the rendition so named:
    /// sharded by its first two digits, so no folder holds tens of thousands
    /// of files; `-original` in place of the size for an original.
    public func path(size: PixelSize, isOriginal: Bool, fileExtension: String) -> String {
        withPath(size: size, isOriginal: isOriginal, fileExtension: fileExtension) { String(decoding: $0, as: UTF8.self) }
    }

    /// Lends `body` the bytes of `path(...)`, written on the stack.
    public func withPath<Result>(size: PixelSize, isOriginal: Bool, fileExtension: String,
                                 _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var fileExtension = fileExtension
        return try fileExtension.withUTF8 { ext in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.longestPath - 16 + ext.count) { out in
                var at = 0
                func put(_ byte: UInt8) {
                    out[at] = byte
                    at += 1
                }
                for byte in "media/".utf8 { put(byte) }
                put(hexDigit(0))
                put(hexDigit(1))
                put(UInt8(ascii: "/"))
                for index in 0..<20 { put(hexDigit(index)) }
                if isOriginal {
                    for byte in "-original".utf8 { put(byte) }
                } else {
                    put(UInt8(ascii: "-"))
                    at = Self.writeDimensions(size, into: out, at: at)
                }
                put(UInt8(ascii: "."))
                for byte in ext { put(byte) }
                return try body(UnsafeBufferPointer(rebasing: out[0..<at]))
            }
        }
    }

    /// Writes "WIDTHxHEIGHT" (what `size.description` is) at `start`; returns the index after it.
    static func writeDimensions(_ size: PixelSize, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int = 0) -> Int {
        let at = writeDecimal(size.width, into: buffer, at: start)
        buffer[at] = UInt8(ascii: "x")
        return writeDecimal(size.height, into: buffer, at: at + 1)
    }

    /// Writes `value` in decimal (as `"\(value)"` does) at `start`; returns the index after it.
    private static func writeDecimal(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var at = start
        if value < 0 {
            buffer[at] = UInt8(ascii: "-")
            at += 1
        }
        var magnitude = value.magnitude
        let first = at
        repeat {
            buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            at += 1
        } while magnitude > 0
        // Written lowest digit first: reversed in place.
        var low = first, high = at - 1
        while low < high {
            buffer.swapAt(low, high)
            low += 1
            high -= 1
        }
        return at
    }
}

/// A rendition made (or found up to date) for one photo.
///
/// 32 bytes: the spec's box (shared), the size in 32-bit halves and the
/// name's 80 bits; the path is spelled from them when asked for. A rendition
/// whose path is not its name's (a private album's, one given as a string)
/// or whose size needs more than 32 bits has a box of its own that keeps
/// both as given.
public struct Rendition: Hashable, Sendable, Codable {
    /// The spec it was made from.
    public var spec: RenditionSpec {
        _read { yield shared.spec }
        set {
            // Its path and size stay what they were: a named one is spelled from the spec.
            shared = SharedSpec(newValue, spelled: (path, size))
        }
    }
    /// Its actual pixel size (upright).
    public var size: PixelSize {
        get { shared.spelled?.size ?? PixelSize(width: Int(width), height: Int(height)) }
        set { self = Rendition(shared: shared, size: newValue, path: path) }
    }
    /// Path relative to the site root.
    public var path: String {
        get { shared.spelled?.path ?? name.withPath(size: namedSize, shared: shared) { String(decoding: $0, as: UTF8.self) } }
        set { self = Rendition(shared: shared, size: size, path: newValue) }
    }

    /// `spec`, in a box shared by every rendition made from one setting (and,
    /// for an original, of one source extension): the renditions of 100,000
    /// items live as long as the build, and the spec inline (56 bytes) was
    /// more than half of each.
    private var shared: SharedSpec
    private var width: Int32
    private var height: Int32
    /// Its name, when `shared.spelled` is nil.
    private var name: RenditionName

    /// A spec shared by renditions (never changed in place).
    public final class SharedSpec: Sendable {
        public let spec: RenditionSpec
        /// The source's extension, for an original (its path ends in it).
        let originalExtension: String?
        /// The path and size of the one rendition holding this box, kept as given.
        let spelled: (path: String, size: PixelSize)?

        public convenience init(_ spec: RenditionSpec) { self.init(spec, originalExtension: nil, spelled: nil) }

        init(_ spec: RenditionSpec, originalExtension: String? = nil, spelled: (path: String, size: PixelSize)?) {
            self.spec = spec
            self.originalExtension = originalExtension
            self.spelled = spelled
        }
    }

    /// Creates a rendition record.
    public init(spec: RenditionSpec, size: PixelSize, path: String) {
        self.init(shared: SharedSpec(spec), size: size, path: path)
    }

    /// Creates a rendition record whose spec is `keyed`'s.
    public init(_ keyed: KeyedRenditionSpec, size: PixelSize, path: String) {
        self.init(shared: keyed.shared, size: size, path: path)
    }

    /// A record of `path` as given, in a box of its own.
    private init(shared: SharedSpec, size: PixelSize, path: String) {
        self.shared = SharedSpec(shared.spec, originalExtension: shared.originalExtension, spelled: (path, size))
        width = 0
        height = 0
        name = RenditionName(.zero)
    }

    /// Creates a rendition record named `name` (`KeyedRenditionSpec.rendition`),
    /// whose spec and extension are `shared`'s; spelled out when its size does not fit.
    init(shared: SharedSpec, size: PixelSize, name: RenditionName) {
        guard let width = Int32(exactly: size.width), let height = Int32(exactly: size.height) else {
            self = Rendition(shared: shared, size: size, path: name.withPath(size: size, shared: shared) { String(decoding: $0, as: UTF8.self) })
            return
        }
        self.shared = shared
        self.width = width
        self.height = height
        self.name = name
    }

    /// The size in its name: its own (an original's name has none).
    private var namedSize: PixelSize { PixelSize(width: Int(width), height: Int(height)) }

    /// A record of this rendition's file under another spec and size (a
    /// smaller one the same size as a larger: one file for both).
    public func sharingItsFile(as keyed: KeyedRenditionSpec, size: PixelSize) -> Rendition {
        if shared.spelled == nil, shared.originalExtension == nil, keyed.spec.format == shared.spec.format, keyed.spec.role != .original,
           size == namedSize {
            var copy = self
            copy.shared = keyed.shared
            return copy
        }
        return Rendition(shared: keyed.shared, size: size, path: path)
    }

    /// Lends `body` the bytes of `path`, made on the stack when it is a name.
    public func withPath<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let spelled = shared.spelled {
            var path = spelled.path
            return try path.withUTF8(body)
        }
        return try name.withPath(size: namedSize, shared: shared, body)
    }

    public static func == (a: Rendition, b: Rendition) -> Bool {
        guard a.shared === b.shared || a.spec == b.spec else { return false }
        if a.shared.spelled == nil, b.shared.spelled == nil {
            return a.width == b.width && a.height == b.height && a.name == b.name && a.shared.originalExtension == b.shared.originalExtension
        }
        return a.size == b.size && a.path == b.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(spec)
        hasher.combine(size)
        withPath { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    enum CodingKeys: String, CodingKey { case spec, size, path }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(spec: try container.decode(RenditionSpec.self, forKey: .spec), size: try container.decode(PixelSize.self, forKey: .size),
                  path: try container.decode(String.self, forKey: .path))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(spec, forKey: .spec)
        try container.encode(size, forKey: .size)
        try container.encode(path, forKey: .path)
    }
}

extension RenditionName {
    /// `withPath` of a rendition of `size` whose box is `shared`: an
    /// original's path ends in `-original` and its source's extension
    /// (its spec's format's, for one converted), another's in its size and its format's.
    func withPath<Result>(size: PixelSize, shared: Rendition.SharedSpec, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withPath(size: size, isOriginal: shared.spec.role == .original,
                     fileExtension: shared.originalExtension ?? shared.spec.format.fileExtension, body)
    }
}

extension StableHash {
    /// Feeds `rendition`'s path as `add(_: String)` feeds it (no string made).
    public mutating func add(pathOf rendition: Rendition) {
        rendition.withPath { update(UnsafeRawBufferPointer($0)) }
        add(UInt64(0xFF))
    }
}
