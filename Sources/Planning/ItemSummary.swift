import GalleryCore

/// What a count line and a date range show: how many items and videos, the
/// first and last local day. The planner fingerprints it and the renderer
/// writes it, from the same value.
public struct ItemSummary: Sendable, Equatable {
    public var items = 0, videos = 0
    /// Items listed through their stack's cover, not on their own.
    public var stacked = 0
    public var first: LocalDay?, last: LocalDay?
    public init() {}
    public init(_ items: some Sequence<MediaItem>) { for item in items { add(item) } }
    /// Counts `item`; a stack is counted whole through its cover (so a list
    /// of tiles and a list of every item give one count), its other items not again.
    public mutating func add(_ item: MediaItem) {
        guard item.stack.isListed else { return }
        let count = item.stack.tileCount
        items += count
        stacked += count - 1
        if item.kind == .video { videos += 1 }
        let day = item.metadata.captureDate.localDay
        first = first.map { min($0, day) } ?? day
        last = last.map { max($0, day) } ?? day
    }
    public mutating func add(_ other: ItemSummary) {
        items += other.items
        videos += other.videos
        stacked += other.stacked
        if let f = other.first { first = first.map { min($0, f) } ?? f }
        if let l = other.last { last = last.map { max($0, l) } ?? l }
    }
    func feed(_ h: inout StableHash) {
        h.add(items)
        h.add(videos)
        h.add(stacked)
        h.add(first.map(\.description) ?? "-")
        h.add(last.map(\.description) ?? "-")
    }
}
