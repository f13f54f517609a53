import GalleryCore

extension OutputFolder {
    /// `produced` in order from `kept` (the owned files it holds, in order)
    /// and the written files: nil unless those two make all of it. (Were
    /// `kept` out of order, so would the result be: `BuildState` checks.)
    static func ordered(kept: [String], written: Set<String>, produced: Set<String>) -> [String]? {
        guard kept.count < produced.count else { return kept.count == produced.count ? kept : nil }
        func isKept(_ path: String) -> Bool {
            var low = 0, high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if kept[middle] < path { low = middle + 1 } else { high = middle }
            }
            return low < kept.count && kept[low] == path
        }
        let new = written.filter { produced.contains($0) && !isKept($0) }.sorted()
        guard kept.count + new.count == produced.count else { return nil }
        return mergeSorted(kept, new)
    }
}
