import Testing
@testable import GalleryCore

/// `StringTable` answers as a `Dictionary` given the same sets would.
@Suite struct StringTableTests {
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
}
