import Testing
import GalleryTestSupport
@testable import GalleryCore

/// A content hash kept as its bits names and hashes exactly as the string
/// of its 32 hex digits did: rendition names, fingerprints and the state
/// stay the same bytes.
@Suite struct ContentHashTests {
    @Test func itIsSpeltAndReadAsThirtyTwoLowercaseHexDigits() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let hash = ContentHash(StableHash.Digest(high: generator.next(), low: generator.next()))
            let text = hash.description
            #expect(text.utf8.count == 32 && text == text.lowercased())
            #expect(ContentHash(hex: text) == hash)
            #expect(Array(text.utf8).withUnsafeBytes { ContentHash(hexBytes: $0) } == hash)
        }
        for bad in ["", "abc", String(repeating: "0", count: 31), String(repeating: "0", count: 33), String(repeating: "A", count: 32),
                    String(repeating: "g", count: 32), "0123456789abcdef0123456789abcde "] {
            #expect(ContentHash(hex: bad) == nil, "\(bad)")
            #expect(Array(bad.utf8).withUnsafeBytes { ContentHash(hexBytes: $0) } == nil, "\(bad)")
        }
    }

    /// Any byte but a lowercase hex digit, anywhere among the digits, is refused.
    @Test func everyOtherByteAnywhereIsRefused() {
        let valid = Array(StableHash.Digest(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210).hex(digits: 32).utf8)
        let digits = Set("0123456789abcdef".utf8)
        for byte in UInt8.min...UInt8.max where !digits.contains(byte) {
            for position in [0, 7, 15, 16, 23, 31] {
                var bytes = valid
                bytes[position] = byte
                #expect(bytes.withUnsafeBytes { StableHash.Digest(hexPrefix: $0, digits: 32) } == nil, "\(byte) at \(position)")
                #expect(bytes.withUnsafeBytes { StableHash.Digest(hexPrefix: UnsafeRawBufferPointer(rebasing: $0[0..<24]), digits: 24) } == nil || position > 23)
            }
        }
        #expect(valid.withUnsafeBytes { StableHash.Digest(hexPrefix: $0, digits: 32) }?.hex(digits: 32) == String(decoding: valid, as: UTF8.self))
    }

    /// A digest's first digits read back (photo keys are its first 24).
    @Test func aDigestsFirstDigitsReadBackAsThatDigestCut() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let digest = StableHash.Digest(high: generator.next(), low: generator.next())
            for digits in [0, 8, 16, 24, 31, 32] {
                let read = StableHash.Digest(hexPrefix: digest.hex(digits: digits).utf8, digits: digits)
                #expect(read?.hex(digits: 32) == digest.hex(digits: digits) + String(repeating: "0", count: 32 - digits))
                #expect(digest.withHexDigits(digits) { Array($0) } == Array(digest.hex(digits: digits).utf8))
            }
            #expect(StableHash.Digest(hexPrefix: digest.hex(digits: 24).utf8, digits: 32) == nil, "too few digits")
        }
    }

    @Test func itIsHashedAsItsTextWas() {
        for label in ["", "a", "photo", "IMG_0001.jpg"] {
            let hash = sampleHash(label)
            var asValue = StableHash(), asText = StableHash()
            asValue.update(hash)
            asText.update(hash.description)
            #expect(asValue.digest() == asText.digest())
            asValue.add(hash)
            asText.add(hash.description)
            asValue.add("after")
            asText.add("after")
            #expect(asValue.digest() == asText.digest())
        }
    }

    @Test func aFileIsHashedToWhatItsWholeBytesHash() {
        let bytes: [UInt8] = Array(0..<200).map { UInt8($0) }
        let whole = bytes.withUnsafeBytes { StableHash.contentHash(of: $0) }
        var hasher = StableHash()
        // In two parts, a multiple of the hash's 16-byte word pair first (as files are read in chunks).
        bytes.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<64])) }
        bytes.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[64...])) }
        #expect(hasher.contentHash() == whole)
    }
}
