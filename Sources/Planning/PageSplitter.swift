import GalleryCore
/// A slice of a section placed on one page.
public struct SectionSlice: Sendable, Equatable {
    /// Index of the section.
    public var section: Int
    /// The photo range of the section on this page.
    public var range: Range<Int>
    /// True when the section started on an earlier page.
    public var continuesFromPrevious: Bool
    /// True when the section goes on to the next page.
    public var continuesOnNext: Bool
}

/// Splits photo lists into pages that never hold more than a budget.
public enum PageSplitter {
    /// Page ranges of a flat list of `count` photos, `budget` per page; at least one
    /// (empty) page so every album has a first page.
    public static func pages(count: Int, budget: Int) -> [Range<Int>] {
        let size = max(1, budget)
        guard count > 0 else { return [0..<0] }
        return stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
    }

    /// Page ranges of an album's `photos`, `budget` tiles per page: a stack
    /// is one tile, and never split (its items follow its cover).
    public static func pages(of photos: [MediaItem], budget: Int) -> [Range<Int>] {
        guard photos.contains(where: { !$0.stack.isListed }) else { return pages(count: photos.count, budget: budget) }
        let size = max(1, budget)
        var ranges: [Range<Int>] = [], start = 0, tiles = 0, index = 0
        while index < photos.count {
            if tiles == size {
                ranges.append(start..<index)
                start = index
                tiles = 0
            }
            index += photos[index].stack.tileCount
            tiles += 1
        }
        ranges.append(start..<min(index, photos.count))
        return ranges
    }

    /// Pages of sections with `sizes[i]` photos each. A section that does not fit
    /// in what is left of a page is split (marked as continuing) unless only a
    /// sliver is left, in which case it starts on a fresh page. A section that
    /// begins a month (`monthStarts[i]`) starts a fresh page when the page is
    /// already three quarters full: pages then tend to begin with a month, at
    /// the cost of at most a quarter page.
    public static func pages(sectionSizes sizes: [Int], budget: Int, monthStarts: [Bool] = []) -> [[SectionSlice]] {
        let budget = max(1, budget)
        let sliver = max(1, budget / 5)
        var pages: [[SectionSlice]] = []
        var page: [SectionSlice] = []
        var room = budget
        for (index, size) in sizes.enumerated() where size > 0 {
            var start = 0
            let startsMonth = index < monthStarts.count && monthStarts[index]
            if !page.isEmpty, (size > room && room < min(size, sliver)) || (startsMonth && room <= budget / 4) {
                pages.append(page)
                page = []
                room = budget
            }
            while start < size {
                let take = min(room, size - start)
                page.append(SectionSlice(section: index, range: start..<start + take,
                                         continuesFromPrevious: start > 0, continuesOnNext: start + take < size))
                start += take
                room -= take
                if room == 0 {
                    pages.append(page)
                    page = []
                    room = budget
                }
            }
        }
        if !page.isEmpty || pages.isEmpty { pages.append(page) }
        return pages
    }
}
