/// A fixed, platform-independent 128-bit hash (two 64-bit multiply–xorshift lanes
/// over little-endian words). Rendition names are derived from it, so its
/// algorithm must never change silently: `version` is part of every name.
///
/// It is not cryptographic; it only has to make accidental collisions between a
/// library's files vanishingly unlikely and be fast on megabytes of JPEG.
public struct StableHash: Sendable {
    /// Bumped if the algorithm ever changes, so old names are never reused.
    public static let version = 1

    private var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var length: UInt64 = 0

    /// A fresh hasher.
    public init() {}

    @inline(__always)
    private static func mix(_ h: UInt64, _ w: UInt64, _ k: UInt64) -> UInt64 {
        var x = (h ^ w) &* k
        x ^= x >> 32
        return x
    }

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        var i = 0
        var a = self.a, b = self.b
        while i + 16 <= count {
            let w0 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let w1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            a = StableHash.mix(a, w0, 0x9FB2_1C65_1E98_DF25)
            b = StableHash.mix(b, w1, 0xD6E8_FEB8_6659_FD93)
            i += 16
        }
        while i < count {
            a = StableHash.mix(a, UInt64(bytes[i]), 0x9FB2_1C65_1E98_DF25)
            b = StableHash.mix(b, UInt64(bytes[i]) &+ 0x100, 0xD6E8_FEB8_6659_FD93)
            i += 1
        }
        self.a = a
        self.b = b
        length &+= UInt64(count)
    }

    /// Feeds a string's UTF-8 bytes followed by a separator, so ("ab","c") ≠ ("a","bc").
    public mutating func update(_ text: String) {
        // The text and its separator are hashed as one run of bytes (the
        // words are read 16 bytes at a time): copied on the stack, not the heap,
        // since every rendition's name and every cache key goes through here.
        var text = text
        text.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(byteCount: utf8.count + 1, alignment: 8) { buffer in
                buffer.copyMemory(from: UnsafeRawBufferPointer(utf8))
                buffer[utf8.count] = 0
                update(UnsafeRawBufferPointer(buffer))
            }
        }
    }

    /// Feeds a string's UTF-8 bytes and a separator without copying them
    /// (native strings are read in place): the page planner hashes millions.
    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
        add(UInt64(0xFF))
    }

    /// Feeds one 64-bit number.
    public mutating func add(_ value: UInt64) {
        a = StableHash.mix(a, value, 0x9FB2_1C65_1E98_DF25)
        b = StableHash.mix(b, value &+ 0x5851_F42D_4C95_7F2D, 0xD6E8_FEB8_6659_FD93)
        length &+= 8
    }

    /// Feeds one whole number.
    public mutating func add(_ value: Int) { add(UInt64(bitPattern: Int64(value))) }

    /// Feeds a flag.
    public mutating func add(_ value: Bool) { add(UInt64(value ? 0x7E : 0x7F)) }

    /// Feeds another digest.
    public mutating func add(_ digest: Digest) {
        add(digest.high)
        add(digest.low)
    }

    /// The hash as 32 lowercase hex digits.
    public func finalize() -> String { digest().description }

    /// The hash as two numbers (what `finalize` writes as hex).
    public func digest() -> Digest {
        func avalanche(_ v: UInt64) -> UInt64 {
            var z = v
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let x = avalanche(a ^ length ^ (b << 7 | b >> 57))
        let y = avalanche(b &+ length &+ x)
        return Digest(high: x, low: y)
    }

    /// A 128-bit hash value: what a page's fingerprint is made of.
    public struct Digest: Hashable, Sendable, CustomStringConvertible {
        public var high: UInt64
        public var low: UInt64
        public init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
        }
        /// No digest: what an empty state holds.
        public static let zero = Digest(high: 0, low: 0)
        /// 32 lowercase hex digits, written nibble by nibble into one string
        /// (file names and cache keys are made of them, 100,000s per build).
        public var description: String { hex(digits: 32) }

        /// The hex digit at `index` (0 to 31) of `description`, as a byte.
        @inline(__always)
        public func hexDigit(_ index: Int) -> UInt8 {
            let word = index < 16 ? high : low
            let nibble = UInt8((word >> UInt64(60 - 4 * (index % 16))) & 0xF)
            return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }

        /// The digest `description` spells (32 lowercase hex digits); nil for anything else.
        public init?(hex: String) { self.init(hexPrefix: hex.utf8, digits: 32) }

        /// The digest whose first `digits` (at most 32) hex digits `bytes`
        /// are, exactly, the rest zero (`hex(digits:)` read back); nil for
        /// any other bytes. Content hashes and photo keys are read this way.
        public init?(hexPrefix bytes: some Collection<UInt8>, digits: Int) {
            guard let digest = bytes.withContiguousStorageIfAvailable({ Self(hexPrefix: UnsafeRawBufferPointer($0), digits: digits) })
                ?? Array(bytes).withUnsafeBytes({ Self(hexPrefix: $0, digits: digits) }) else { return nil }
            self = digest
        }

        /// Likewise, of bytes in memory: not generic, so a state's two
        /// million keys and hashes are read without a type looked up per
        /// digit (a tenth of a no-op's reading of its state, unspecialized).
        /// Each digit through a table, no branch per digit: an add rewrites
        /// the state checking every key's digits, and that check was a third
        /// of the rewrite at 1,000,000 items.
        public init?(hexPrefix bytes: UnsafeRawBufferPointer, digits: Int) {
            guard (0...32).contains(digits), bytes.count == digits else { return nil }
            var high: UInt64 = 0, low: UInt64 = 0, seen: UInt8 = 0
            Self.hexValues.withUnsafeBufferPointer { values in
                let split = Swift.min(digits, 16)
                for index in 0..<split {
                    let nibble = values[Int(bytes[index])]
                    seen |= nibble
                    high = high << 4 | UInt64(nibble & 0xF)
                }
                for index in split..<digits {
                    let nibble = values[Int(bytes[index])]
                    seen |= nibble
                    low = low << 4 | UInt64(nibble & 0xF)
                }
            }
            // A byte that is no lowercase hex digit is 0xFF in the table: its high bits are set.
            guard seen & 0xF0 == 0 else { return nil }
            // Left-aligned: the digits read are the digest's first ones.
            if digits < 16 { high <<= UInt64(4 * (16 - digits)) }
            if digits < 32 { low = digits <= 16 ? 0 : low << UInt64(4 * (32 - digits)) }
            self.init(high: high, low: low)
        }

        /// Calls `body` with the first `digits` (at most 32) hex digits of
        /// `description`, and a NUL after them when `separated` (as
        /// `StableHash.update(String)` ends a string), written on the stack:
        /// content hashes and photo keys are hashed and written this way.
        public func withHexDigits<Result>(_ digits: Int, separated: Bool = false, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            let count = min(32, max(0, digits))
            return withUnsafeTemporaryAllocation(byteCount: 33, alignment: 8) { buffer in
                for index in 0..<count { buffer[index] = hexDigit(index) }
                buffer[count] = 0
                return body(UnsafeRawBufferPointer(rebasing: buffer[0..<(separated ? count + 1 : count)]))
            }
        }

        /// Each byte's value as a lowercase hex digit; 0xFF for any other byte.
        private static let hexValues: [UInt8] = (0...255).map { value(ofHexDigit: UInt8($0)) ?? 0xFF }

        /// A lowercase hex digit's value, as `hexDigit` writes it; nil for any other byte.
        @inline(__always)
        public static func value(ofHexDigit byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }

        /// The first `digits` (at most 32) hex digits of `description`.
        public func hex(digits: Int) -> String {
            let count = min(32, max(0, digits))
            return String(unsafeUninitializedCapacity: count) { buffer in
                for index in 0..<count { buffer[index] = hexDigit(index) }
                return count
            }
        }
    }

    /// The content hash of a whole buffer.
    public static func contentHash(of bytes: UnsafeRawBufferPointer) -> ContentHash {
        var h = StableHash()
        h.update(bytes)
        return h.contentHash()
    }
}
