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

    /// The longest path `write` writes: `media/NN/` (9), the name (20), `-WxH`
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
public struct Rendition: Hashable, Sendable, Codable {
    /// The spec it was made from.
    public var spec: RenditionSpec {
        _read { yield shared.spec }
        set {
            // Its path stays what it was: a named one is spelled from the spec's format.
            spellOut()
            shared = SharedSpec(newValue)
        }
    }
    /// Its actual pixel size (upright).
    public var size: PixelSize {
        get { storedSize }
        set {
            // Its path stays what it was: a named one is spelled with its size.
            spellOut()
            storedSize = newValue
        }
    }
    /// Path relative to the site root.
    public var path: String {
        get { spelled?.path ?? name.path(size: storedSize, isOriginal: shared.spec.role == .original, fileExtension: shared.spec.format.fileExtension) }
        set { spelled = SpelledPath(newValue) }
    }

    /// `spec`, in a box shared by every rendition made from one setting: the
    /// renditions of 100,000 items live as long as the build, and the spec
    /// inline (56 bytes) was more than half of each.
    private var shared: SharedSpec
    private var storedSize: PixelSize
    /// The path of a rendition that is not named by `name` alone (an
    /// original's, a private album's, one given as a string); nil: `name`'s.
    private var spelled: SpelledPath?
    /// Its name, when `spelled` is nil.
    private var name: RenditionName

    /// A spec shared by renditions (never changed in place).
    public final class SharedSpec: Sendable {
        public let spec: RenditionSpec
        public init(_ spec: RenditionSpec) { self.spec = spec }
    }

    /// A path held as given.
    private final class SpelledPath: Sendable {
        let path: String
        init(_ path: String) { self.path = path }
    }

    /// Creates a rendition record.
    public init(spec: RenditionSpec, size: PixelSize, path: String) {
        self.init(KeyedRenditionSpec(spec), size: size, path: path)
    }

    /// Creates a rendition record whose spec is `keyed`'s, shared.
    public init(_ keyed: KeyedRenditionSpec, size: PixelSize, path: String) {
        shared = keyed.shared
        storedSize = size
        spelled = SpelledPath(path)
        name = RenditionName(.zero)
    }

    /// Creates a rendition record named `name` (`KeyedRenditionSpec.rendition`).
    init(_ keyed: KeyedRenditionSpec, size: PixelSize, name: RenditionName) {
        shared = keyed.shared
        storedSize = size
        spelled = nil
        self.name = name
    }

    /// A record of this rendition's file under another spec and size (a
    /// smaller one the same size as a larger: one file for both).
    public func sharingItsFile(as keyed: KeyedRenditionSpec, size: PixelSize) -> Rendition {
        var copy = self
        copy.spellOut(unlessSpelledAs: keyed.spec, size: size)
        copy.shared = keyed.shared
        copy.storedSize = size
        return copy
    }

    /// Keeps the path as it is spelled now, whatever the spec and size become
    /// (unless a spec and size that spell the same name's path are given).
    private mutating func spellOut(unlessSpelledAs spec: RenditionSpec? = nil, size: PixelSize? = nil) {
        guard spelled == nil else { return }
        if let spec, spec.format == shared.spec.format, (spec.role == .original) == (shared.spec.role == .original), size == storedSize { return }
        spelled = SpelledPath(path)
    }

    /// Lends `body` the bytes of `path`, made on the stack when it is a name.
    public func withPath<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let spelled {
            var path = spelled.path
            return try path.withUTF8(body)
        }
        return try name.withPath(size: storedSize, isOriginal: shared.spec.role == .original, fileExtension: shared.spec.format.fileExtension, body)
    }

    public static func == (a: Rendition, b: Rendition) -> Bool {
        guard a.storedSize == b.storedSize, a.shared === b.shared || a.spec == b.spec else { return false }
        if a.spelled == nil, b.spelled == nil { return a.name == b.name }
        return a.path == b.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(spec)
        hasher.combine(storedSize)
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

extension StableHash {
    /// Feeds `rendition`'s path as `add(_: String)` feeds it (no string made).
    public mutating func add(pathOf rendition: Rendition) {
        rendition.withPath { update(UnsafeRawBufferPointer($0)) }
        add(UInt64(0xFF))
    }
}
