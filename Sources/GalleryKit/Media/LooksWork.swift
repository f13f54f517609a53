import GalleryCore
import Imaging
import SiteOutput

/// The looks of every item (`PictureLooks`: its placeholder, and for stills
/// what near-duplicates are found by), made from the smallest still
/// thumbnail's pixels as the renditions are made (an animation's: its
/// poster's; a video's: its poster frame's); kept in the state with the key
/// of the plan they were made with.
extension RenditionPlanner {
    /// The rendition looks are made from: the smallest still thumbnail (an
    /// animation's thumbnails move: the smallest poster, its first frame).
    static func looksJob(_ plan: RenditionPlan) -> Int? {
        // Asked of every photo of a no-op: no array made.
        var smallest: Int?
        for (index, job) in plan.jobs.enumerated() where !job.spec.animated && (job.spec.role == .thumbnail || job.spec.role == .poster) {
            if let known = smallest, plan.jobs[known].size.area <= job.size.area { continue }
            smallest = index
        }
        return smallest
    }

    /// What that rendition's pixels depend on besides the file: one decode
    /// feeds every still size in a chain, so every still job's size, and
    /// which is looked at. Looks made under another key are made again, so
    /// an incremental build's equal a clean build's.
    static func looksKey(_ plan: RenditionPlan) -> UInt64? {
        guard let job = looksJob(plan) else { return nil }
        // FNV-1a over a few integers (not a StableHash: this is asked of every photo of a no-op).
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ value: Int) { h = (h ^ UInt64(truncatingIfNeeded: value)) &* 0x100_0000_01b3 }
        add(job)
        // AVIF jobs share their WebP or JPEG job's pixels: they change nothing.
        for still in plan.jobs where !still.spec.animated && still.spec.format != .avif {
            add(still.size.width)
            add(still.size.height)
        }
        return h
    }

    /// Whether an entry's looks are wanted and not there (or made under another plan).
    static func needsLooks(_ cached: CachedPhoto, _ plan: RenditionPlan, wanted: Bool) -> Bool {
        guard wanted, let key = looksKey(plan) else { return false }
        return cached.looks == nil || cached.looksKey != key
    }

    /// An item's looks for this build: the cached ones while they were made
    /// under this plan and its stills need not be made again, else a tap that
    /// makes them from the stills' pixels as they are made (`taps`). Nil when
    /// looks are not wanted or the plan has no still to take them from.
    static func looks(known: CachedPhoto?, plan: RenditionPlan, wanted: Bool) -> LooksInWork? {
        guard wanted, let job = looksJob(plan), let key = looksKey(plan) else { return nil }
        if let known, known.looksKey == key, let looks = known.looks, plan.missingStills == 0 {
            return LooksInWork(key: key, kept: looks)
        }
        return LooksInWork(key: key, madeFrom: job)
    }
}

/// The looks of one item as its job runs: kept, or made by `tap` when its
/// stills are made (on the job's own thread).
final class LooksInWork {
    let key: UInt64
    /// The still job whose pixels make them; nil when the cached ones are kept.
    private let job: Int?
    private(set) var looks: PictureLooks?

    init(key: UInt64, kept: PictureLooks) {
        self.key = key
        self.job = nil
        self.looks = kept
    }

    init(key: UInt64, madeFrom job: Int) {
        self.key = key
        self.job = job
    }

    /// The tap that makes the looks; nil when they are kept. Made when asked
    /// for, not stored: the tap holds the work, and the work must not hold it.
    var tap: PictureTap? {
        guard let job else { return nil }
        return PictureTap(job: job) { self.looks = PictureLooks($0) }
    }

    /// Records the looks (and the key they were made under) in the entry.
    func record(in cached: inout CachedPhoto) {
        guard let looks else { return }
        cached.looks = looks
        cached.looksKey = key
    }
}
