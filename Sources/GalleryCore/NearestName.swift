/// The name a mistyped one most likely meant: `qualty` → `quality`,
/// `favorites` → `favourites`, `biuld` → `build`. Case is ignored; nil when
/// no candidate is within a couple of edits (a guess that far off helps no one).
public enum NearestName {
    public static func suggestion(for typed: String, among candidates: [String]) -> String? {
        let word = Array(typed.lowercased())
        let limit = max(1, min(3, word.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, Array(candidate.lowercased()))
            if distance <= limit, best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
