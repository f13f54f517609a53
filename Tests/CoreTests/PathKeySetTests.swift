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

    /// Filled a run of the table on each core, the set holds what a `Set`
    /// holds: keys crowding the runs' ends (their probes cross into the next
    /// run, or past the table's end), the free key, a key given twice in one
    /// part, in two parts and in two fills; and removals after it find what
    /// they look for.
    @Test func aFillOnEveryCoreHoldsWhatASetHolds() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<30 {
            let capacity = round * 53 % 700 + 20
            var set = PathKeySet(minimumCapacity: capacity)
            let regions = set.regions(round % 2 == 0 ? 16 : 3)
            // High halves whose homes are the last slots of each run, and of the table.
            let slotCount = regions.slotCount
            let crowded = (1...regions.count).map { UInt64.max / UInt64(slotCount) * UInt64($0 * slotCount / regions.count - 1) }
            var reference = Set<PathKey>()
            for _ in 0..<2 {
                var keys = (0..<(capacity / 3)).map { _ in
                    PathKey(digest: StableHash.Digest(high: generator.next() % 2 == 0 ? crowded.randomElement(using: &generator)! : generator.next(),
                                                      low: generator.next() % 8))
                }
                keys.append(PathKey(digest: .zero))
                keys += keys.prefix(5)
                let parts = stride(from: 0, to: keys.count, by: 40).map { start in
                    var runs = [[PathKey]](repeating: [], count: regions.count)
                    for key in keys[start..<min(keys.count, start + 40)] { runs[regions.of(key)].append(key) }
                    return runs
                }
                set.insert(parts + [parts[0]], sortedBy: regions)
                reference.formUnion(keys)
            }
            #expect(set.count == reference.count, "seed \(seed)")
            for key in reference { #expect(set.contains(key), "seed \(seed)") }
            #expect(!set.contains(PathKey(digest: StableHash.Digest(high: crowded[0], low: 99))), "seed \(seed)")
            for key in reference.shuffled(using: &generator).prefix(reference.count / 2) {
                let removed = set.remove(key)
                #expect(removed, "seed \(seed)")
                reference.remove(key)
            }
            #expect(set.count == reference.count, "seed \(seed)")
            for key in reference { #expect(set.contains(key), "seed \(seed)") }
        }
    }

    /// Keys sorted by the runs of a table that has since grown go in one by one.
    @Test func keysSortedForAnotherTableGoInOneByOne() {
        var set = PathKeySet(minimumCapacity: 4)
        let regions = set.regions(4)
        let keys = (1...50).map { PathKey(digest: StableHash.Digest(high: UInt64($0) << 58, low: 1)) }
        var runs = [[PathKey]](repeating: [], count: 4)
        for key in keys { runs[regions.of(key)].append(key) }
        set.insert([runs], sortedBy: regions)
        #expect(set.count == 50)
        for key in keys { #expect(set.contains(key)) }
    }
}
