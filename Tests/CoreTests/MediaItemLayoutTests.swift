import Foundation
import GalleryCore
import GalleryTestSupport
import Testing

/// An item's object is held for every photo all build long (a million of
/// them at the scale the benchmarks measure): its size is a measured fact,
/// kept here, and its compact fields read back what was set.
struct MediaItemLayoutTests {
    /// The object fits malloc's 192-byte blocks (it was 201 bytes, served
    /// from 224, with the digest an optional and the stack role an enum).
    @Test func anItemsObjectFitsMallocs192ByteBlocks() throws {
        let item = samplePhoto("Trip/a.jpg", "2024:05:01 10:00:00")
        let storage = try #require(Mirror(reflecting: item).children.first { $0.label == "storage" }?.value as AnyObject?)
        // `<malloc.h>` is not in the Glibc module: looked up by name, as `MemoryTuning` does `mallopt`.
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        let symbol = try #require(dlsym(nil, "malloc_usable_size"))
        let usable = withExtendedLifetime(storage) { unsafeBitCast(symbol, to: UsableSize.self)(Unmanaged.passUnretained(storage).toOpaque()) }
        // A 192-byte block gives 184 usable bytes (its size is kept in the other 8).
        #expect(usable <= 184, "an item's object takes \(usable) usable bytes")
    }

    /// The stack role and the digest read back as set, every case and the
    /// largest counts, and a copy changed keeps the original's.
    @Test func compactFieldsReadBackAsSet() {
        var item = samplePhoto("Trip/a.jpg", "2024:05:01 10:00:00")
        #expect(item.stack == .single && item.metadataDigest == nil)
        for role in [StackRole.cover(count: 1), .cover(count: 7), .member(offset: 1), .member(offset: 3), .cover(count: (1 << 29) - 1),
                     .member(offset: (1 << 29) - 1), .single] {
            item.stack = role
            #expect(item.stack == role)
        }
        let digest = StableHash.Digest(high: 0xFFFF_FFFF_FFFF_FFFF, low: 1)
        for value in [digest, .zero, nil] {
            item.metadataDigest = value
            #expect(item.metadataDigest == value)
        }
        item.stack = .cover(count: 3)
        item.metadataDigest = digest
        var copy = item
        copy.stack = .member(offset: 2)
        copy.metadataDigest = nil
        #expect(item.stack == .cover(count: 3) && item.metadataDigest == digest && copy.stack == .member(offset: 2) && copy.metadataDigest == nil)
    }
}
