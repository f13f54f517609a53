import Testing
import GalleryTestSupport
@testable import GalleryCore

/// `StringTable` answers as a `Dictionary` given the same sets would.
@Suite struct StringTableTests {
    /// An entry's index is where its key and value are, and setting values
    /// (new keys or old) moves no entry: the media step keeps indices.
    @Test func anEntryStaysAtItsIndexWhileValuesAreSet() throws {
        var table = StringTable<Int>()
        for n in 0..<5_000 { table.set(n, for: "k\(n)") }
        let before = (0..<5_000).map { table.index(forKey: "k\($0)") }
        for n in stride(from: 0, to: 5_000, by: 3) { table.set(-n, for: "k\(n)") }
        for n in 5_000..<20_000 { table.set(n, for: "k\(n)") }
        for n in 0..<5_000 {
            let index = try #require(before[n])
            #expect(table.index(forKey: "k\(n)") == index)
            #expect(table.keys[index] == "k\(n)" && table.values[index] == (n % 3 == 0 ? -n : n))
        }
        #expect(table.index(forKey: "absent") == nil)
        table.removeValue(forKey: "k0")
        #expect(table.index(forKey: "k0") == nil)
        #expect(table.index(forKey: "k19999").map { table.values[$0] } == 19_999, "the last entry moved into the gap")
    }

    @Test func answersAsADictionary() {
        var table = StringTable<Int>(minimumCapacity: 3)
        var dictionary: [String: Int] = [:]
        var state: UInt64 = 23
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<20_000 {
            // Few keys at first (replacements), then many (growth), some not ASCII.
            let key = ["albums/\(next(round < 5000 ? 50 : 40_000)).jpg", "é/\(next(300))", ""][next(3)]
            if next(2) == 0 {
                table.set(round, for: key)
                dictionary[key] = round
            } else {
                table.setIfAbsent(round, for: key)
                if dictionary[key] == nil { dictionary[key] = round }
            }
        }
        #expect(table.count == dictionary.count)
        for (key, value) in dictionary { #expect(table[key] == value) }
        for key in ["absent", "albums/40000.jpg", "é"] { #expect(table[key] == nil) }
        #expect(Set(table.keys) == Set(dictionary.keys))
        #expect(zip(table.keys, table.values).allSatisfy { dictionary[$0] == $1 })
        #expect(StringTable<Int>()["x"] == nil)
    }

    static func expectSame(_ table: StringTable<Int>, _ model: [String: Int], _ note: String) {
        #expect(table.count == model.count, "\(note)")
        #expect(Set(table.keys) == Set(model.keys), "\(note)")
        for (key, value) in model where table[key] != value { Issue.record("\(note): \(key) differs") }
        var visited = 0
        for (key, value) in table {
            visited += 1
            if model[key] != value { Issue.record("\(note): \(key) visited with another value") }
        }
        #expect(visited == model.count, "\(note)")
    }

    /// Removals as a `Dictionary` does them, among sets, replacements,
    /// filters and merges: few keys and many steps make long probe runs,
    /// and removals in the middle of them (each run closed up again).
    @Test func removesAsADictionaryDoes() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var table = StringTable<Int>(), model: [String: Int] = [:]
        for step in 0..<20_000 {
            let key = "k\(random.next() % 700)", n = Int(random.next() % 1_000_000)
            switch random.next() % 10 {
            case 0...4:
                #expect(table.updateValue(n, forKey: key) == model.updateValue(n, forKey: key), "seed \(seed)")
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
            if step % 97 == 0 { Self.expectSame(table, model, "seed \(seed), step \(step)") }
        }
        Self.expectSame(table, model, "seed \(seed)")
        // Merging another table: its values win where both have one.
        var other = StringTable<Int>(), otherModel: [String: Int] = [:]
        for n in 0..<300 { other["k\(n * 3)"] = -n; otherModel["k\(n * 3)"] = -n }
        table.merge(other) { _, theirs in theirs }
        model.merge(otherModel) { _, theirs in theirs }
        Self.expectSame(table, model, "seed \(seed), merged")
        // Equal whatever order the entries came in.
        var reversed = StringTable<Int>()
        for (key, value) in model.sorted(by: { $0.key > $1.key }) { reversed[key] = value }
        #expect(reversed == table)
        reversed["another"] = 1
        #expect(reversed != table)
    }

    /// Emptied one by one and filled again: no slot is left claimed.
    @Test func emptiedTablesFillAgain() {
        var table: StringTable<Int> = [:]
        for n in 0..<5_000 { table["p\(n)"] = n }
        for n in (0..<5_000).reversed() where n % 2 == 0 { table["p\(n)"] = nil }
        for n in 0..<5_000 where n % 2 == 1 { #expect(table.removeValue(forKey: "p\(n)") == n) }
        #expect(table.isEmpty && table["p1"] == nil)
        for n in 0..<5_000 { table["q\(n)"] = n }
        // (The closure's type is given: inferred, `n` became `Int?` to match the lookup's, and the key "qOptional(0)".)
        #expect(table.count == 5_000 && (0..<5_000).allSatisfy { (n: Int) -> Bool in table["q\(n)"] == n })
    }

    /// Full, a table grows by a quarter, not twice over: the one photo an
    /// add brings to a million entries does not hold a million more empty.
    @Test func aFullTableGrowsByAQuarter() {
        var table = StringTable<Int>(minimumCapacity: 10_000)
        let reserved = table.values.capacity
        for n in 0..<(reserved + 1) { table["p\(n)"] = n }
        #expect(table.values.capacity > reserved && table.values.capacity <= reserved + reserved / 4 + 64, "\(table.values.capacity)")
        #expect(table.count == reserved + 1 && (0...reserved).allSatisfy { (n: Int) -> Bool in table["p\(n)"] == n })
    }
}
