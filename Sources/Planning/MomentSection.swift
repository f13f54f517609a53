import GalleryCore
import Foundation

/// One section of the moments timeline: photos from one day (or month, or one
/// burst of activity), across albums.
public struct MomentSection: Sendable {
    /// The value of the heading's `<time datetime>`: `YYYY-MM-DD`, or `YYYY-MM` by month.
    public var datetime: String
    /// First and last local day the section covers (equal for day sections).
    public var firstDay: LocalDay
    /// Last local day covered.
    public var lastDay: LocalDay
    /// The photos, in timeline order.
    public var photos: [MediaItem]
    /// The albums they come from, in order of first appearance.
    public var albums: [AlbumPath]
    /// Where the photos were taken (`moment_places`), most photos first,
    /// ties in timeline order; empty when none has a place.
    public var places: [Place]

    /// Creates a section.
    public init(datetime: String, firstDay: LocalDay, lastDay: LocalDay, photos: [MediaItem], albums: [AlbumPath], places: [Place] = []) {
        self.datetime = datetime
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.photos = photos
        self.albums = albums
        self.places = places
    }
}

/// Builds the moments timeline.
public enum MomentSectioner {
    /// One photo per distinct content: a file copied into two albums shows once,
    /// from the album that sorts first (then the file name that does).
    /// (The result keeps the input's order; `sections` puts it in timeline order.)
    public static func unique(_ photos: [MediaItem]) -> [MediaItem] {
        // Only copies need choosing between: no sort of every item (a struct
        // copied at each move), one dictionary pass.
        var chosen: [ContentHash: Int] = [:]
        chosen.reserveCapacity(photos.count)
        // The copies not chosen, marked as they lose (not every item looked up again).
        var dropped: [Bool] = []
        for (index, photo) in photos.enumerated() {
            // One lookup: a new content's slot is filled with this index in place.
            let other = Self.value(&chosen[photo.contentHash, default: index])
            guard other != index else { continue }
            if dropped.isEmpty { dropped = Array(repeating: false, count: photos.count) }
            let a = photo.source, b = photos[other].source
            let first = a.albumPath == b.albumPath ? a.fileName < b.fileName : a.albumPath < b.albumPath
            if first {
                chosen[photo.contentHash] = index
                dropped[other] = true
            } else {
                dropped[index] = true
            }
        }
        guard !dropped.isEmpty else { return photos }
        return photos.indices.filter { !dropped[$0] }.map { photos[$0] }
    }

    /// What an `inout` access holds (through `Dictionary`'s `[key, default:]`,
    /// a lookup that stores the default in place when the key is new).
    private static func value<Value>(_ slot: inout Value) -> Value { slot }

    /// Timeline order within the sections: by instant, then path for ties.
    static func chronological(_ a: MediaItem, _ b: MediaItem) -> Bool {
        let x = a.metadata.captureDate.instant, y = b.metadata.captureDate.instant
        if x != y { return x < y }
        return a.source.relativePath < b.source.relativePath
    }

    /// The sections for `photos` (already deduplicated), grouped and ordered.
    ///
    /// Day and month sections use the photographer's local calendar date, so a
    /// photo taken at 23:30 in Tokyo belongs to that Tokyo day wherever the site
    /// is built; inside a section photos follow the real instant.
    public static func sections(_ photos: [MediaItem], grouping: MomentGrouping, order: SortDirection) -> [MomentSection] {
        var groups: [[MediaItem]] = []
        switch grouping {
        case .day, .month:
            // Keyed by the day (or the month's first day), not its text: a
            // string made per item was a third of sorting 100,000 into days.
            // Years have four digits, so days sort as their text does.
            var byKey: [LocalDay: [MediaItem]] = [:]
            let byMonth = grouping == .month
            for photo in photos {
                var day = photo.metadata.captureDate.localDay
                if byMonth { day.day = 1 }
                byKey[day, default: []].append(photo)
            }
            let grouped = byKey
            groups = parallelMap(grouped.keys.sorted()) { grouped[$0]!.sorted(by: chronological) }  // each day's on every core
        case .gap(let hours):
            let limit = hours * 3600
            var current: [MediaItem] = []
            for photo in photos.sorted(by: chronological) {
                if let last = current.last {
                    let pause = photo.metadata.captureDate.instant.timeIntervalSince(last.metadata.captureDate.instant)
                    let day = photo.metadata.captureDate.localDay, lastDay = last.metadata.captureDate.localDay
                    // A new month starts a section when the pause there is a
                    // third of the gap: the month index then points at a
                    // section that begins in that month, and a trip across
                    // the turn of a month (no such pause) stays one.
                    let newMonth = day.month != lastDay.month || day.year != lastDay.year
                    if pause > limit || (newMonth && pause > limit / 3) {
                        groups.append(current)
                        current = []
                    }
                }
                current.append(photo)
            }
            if !current.isEmpty { groups.append(current) }
        }
        // Each section's days, albums and places on every core.
        var sections = parallelMap(groups, minimumCount: 2) { group -> MomentSection in
            let days = group.map(\.metadata.captureDate.localDay)
            let first = days.min()!, last = days.max()!
            var albums: [AlbumPath] = []
            for photo in group where !albums.contains(photo.source.albumPath) { albums.append(photo.source.albumPath) }
            return MomentSection(datetime: key(first, grouping), firstDay: first, lastDay: last, photos: group, albums: albums,
                                 places: places(of: group))
        }
        if order == .descending {
            sections.reverse()
            for i in sections.indices { sections[i].photos.reverse() }
        }
        return sections
    }

    /// The distinct places of `photos`, most photos first (ties: first seen).
    static func places(of photos: [MediaItem]) -> [Place] {
        var counts: [Place: Int] = [:], order: [Place] = []
        for photo in photos {
            guard let place = photo.metadata.place else { continue }
            if counts[place] == nil { order.append(place) }
            counts[place, default: 0] += 1
        }
        // Stable: `order` is already first-seen order.
        return order.enumerated().sorted { a, b in
            counts[a.element]! != counts[b.element]! ? counts[a.element]! > counts[b.element]! : a.offset < b.offset
        }.map(\.element)
    }

    static func key(_ day: LocalDay, _ grouping: MomentGrouping) -> String {
        if case .month = grouping { return day.monthDescription }
        return day.description
    }
}
