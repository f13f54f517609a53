import Foundation
import Testing
@testable import SiteOutput
@testable import GalleryCore

/// `PhotoEntries` does what a `Dictionary` does with the same steps:
/// random sets, replacements, removals (every probe run closed up again),
/// filters and merges, checked against one after every step.
@Suite struct PhotoEntriesTests {
    static let metadata = PhotoMetadata(format: .jpeg, storedSize: PixelSize(width: 4, height: 3), orientation: .up,
                                        captureDate: CaptureDate(wallClockSeconds: 9, utcOffsetSeconds: nil, source: .original), frameCount: 1)

    static func entry(_ n: Int) -> CachedPhoto {
        CachedPhoto(size: Int64(n), modified: Int64(n) * 3, contentHash: "h\(n)", metadata: metadata)
    }

    static func expectSame(_ table: PhotoEntries, _ model: [String: CachedPhoto], _ step: Int) {
        #expect(table.count == model.count, "step \(step)")
        #expect(Set(table.keys) == Set(model.keys), "step \(step)")
        for (key, value) in model where table[key] != value { Issue.record("step \(step): \(key) differs") }
        var visited = 0
        for (key, value) in table {
            visited += 1
            if model[key] != value { Issue.record("step \(step): \(key) visited with another entry") }
        }
        #expect(visited == model.count, "step \(step)")
    }

    @Test func behavesAsADictionaryThroughRandomEdits() {
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SplitMix(seed: seed)
        var table = PhotoEntries(), model: [String: CachedPhoto] = [:]
        // Few keys, many steps: long probe runs, and removals in the middle of them.
        for step in 0..<20_000 {
            let key = "k\(random.next() % 700)", n = Int(random.next() % 1_000_000)
            switch random.next() % 10 {
            case 0...4:
                #expect(table.updateValue(Self.entry(n), forKey: key) == model.updateValue(Self.entry(n), forKey: key), "seed \(seed)")
            case 5...7:
                #expect(table.removeValue(forKey: key) == model.removeValue(forKey: key), "seed \(seed)")
            case 8:
                table[key] = nil
                model[key] = nil
            default:
                if step % 50 == 0 {
                    let odd = { (key: String) in key.hasSuffix("1") || key.hasSuffix("3") }
                    table = table.filter { !odd($0.key) }
                    model = model.filter { !odd($0.key) }
                }
            }
            if step % 97 == 0 { Self.expectSame(table, model, step) }
        }
        Self.expectSame(table, model, -1)
        // Merging another table: its entries win where both have one.
        var other = PhotoEntries(), otherModel: [String: CachedPhoto] = [:]
        for n in 0..<300 { other["k\(n * 3)"] = Self.entry(-n); otherModel["k\(n * 3)"] = Self.entry(-n) }
        table.merge(other) { _, theirs in theirs }
        model.merge(otherModel) { _, theirs in theirs }
        Self.expectSame(table, model, -2)
        // Equal whatever the order the entries came in.
        var reversed = PhotoEntries()
        for (key, value) in model.sorted(by: { $0.key > $1.key }) { reversed[key] = value }
        #expect(reversed == table)
        reversed["another"] = Self.entry(1)
        #expect(reversed != table)
    }

    /// Emptied one by one and filled again: no slot is left claimed.
    @Test func emptiedTablesFillAgain() {
        var table: PhotoEntries = [:]
        for n in 0..<5_000 { table["p\(n)"] = Self.entry(n) }
        for n in (0..<5_000).reversed() where n % 2 == 0 { table["p\(n)"] = nil }
        for n in 0..<5_000 where n % 2 == 1 { #expect(table.removeValue(forKey: "p\(n)") == Self.entry(n)) }
        #expect(table.isEmpty && table["p1"] == nil)
        for n in 0..<5_000 { table["q\(n)"] = Self.entry(n) }
        #expect(table.count == 5_000 && (0..<5_000).allSatisfy { table["q\($0)"] == Self.entry($0) })
    }
}

/// A small seeded generator: a failing seed can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
