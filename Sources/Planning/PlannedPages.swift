/// Every page of a plan, in rendering order, held as the runs it was planned
/// in (an album's pages and its items', then the rest), not joined into one
/// array: joining a million pages held them twice at the plan's peak.
public struct PlannedPages: RandomAccessCollection, Sendable {
    /// The runs, none empty.
    private let runs: [[PlannedPage]]
    /// Where each run starts among all the pages, then the count of all.
    private let starts: [Int]

    /// The pages of `runs`, in order (each run let go of here, not copied).
    init(_ runs: consuming [[PlannedPage]]) {
        self.runs = runs.filter { !$0.isEmpty }
        var starts = [0]
        starts.reserveCapacity(self.runs.count + 1)
        for run in self.runs { starts.append(starts[starts.count - 1] + run.count) }
        self.starts = starts
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts[starts.count - 1] }

    public subscript(position: Int) -> PlannedPage {
        precondition(position >= 0 && position < endIndex, "a page past the plan's end")
        // The last run that starts at or before `position`.
        var low = 0, high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return runs[low][position - starts[low]]
    }

    /// Walks the runs in order (no search per page).
    public struct Iterator: IteratorProtocol {
        fileprivate var runs: IndexingIterator<[[PlannedPage]]>
        fileprivate var current: IndexingIterator<[PlannedPage]>?

        public mutating func next() -> PlannedPage? {
            while true {
                if let page = current?.next() { return page }
                guard let run = runs.next() else { return nil }
                current = run.makeIterator()
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(runs: runs.makeIterator(), current: nil) }
}
