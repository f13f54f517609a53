import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import SiteOutput

/// The flat set of path keys holds what a `Set` holds through any mix of
/// inserts and removals: keys that crowd one place (and wrap past the
/// table's end), the free key itself, and growth from empty.
@Suite struct PathKeySetTests {
    @Test func itHoldsWhatASetHolds() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<40 {
            // Few distinct high halves: most keys share a home; some at the table's very end.
            let highs: [UInt64] = [0, 1, .max, .max - 1, 1 << 63, generator.next(), generator.next()]
            var keys = (0..<(round * 37 % 400 + 1)).map { _ in
                PathKey(digest: StableHash.Digest(high: highs.randomElement(using: &generator)!, low: generator.next() % 64))
            }
            keys.append(PathKey(digest: .zero))
            var set = PathKeySet(minimumCapacity: round % 3 == 0 ? 0 : keys.count / 2)
            var reference = Set<PathKey>()
            for _ in 0..<2_000 {
                let key = keys.randomElement(using: &generator)!
                if generator.next() % 3 == 0 {
                    #expect(set.remove(key) == (reference.remove(key) != nil), "seed \(seed)")
                } else {
                    #expect(set.insert(key) == reference.insert(key).inserted, "seed \(seed)")
                }
            }
            #expect(set.count == reference.count, "seed \(seed)")
            for key in keys { #expect(set.contains(key) == reference.contains(key), "seed \(seed)") }
            var union = PathKeySet()
            union.formUnion(set)
            union.formUnion([PathKey(digest: StableHash.Digest(high: 5, low: 5))])
            #expect(union.count == reference.union([PathKey(digest: StableHash.Digest(high: 5, low: 5))]).count, "seed \(seed)")
            for key in keys { #expect(union.contains(key) == reference.contains(key), "seed \(seed)") }
        }
    }
}
