import GalleryCore
import Imaging
import SiteOutput

/// The looks of stills (`PictureLooks`: what near-duplicates are found by),
/// made from the smallest thumbnail's pixels as the renditions are made;
/// kept in the state with the key of the plan they were made with.
extension RenditionPlanner {
    /// The rendition looks are made from: the smallest still thumbnail.
    static func looksJob(_ plan: RenditionPlan) -> Int? {
        // Asked of every photo of a no-op: no array made.
        var smallest: Int?
        for (index, job) in plan.jobs.enumerated() where !job.spec.animated && job.spec.role == .thumbnail {
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
        guard wanted, hasLooks(cached.metadata.kind), let key = looksKey(plan) else { return false }
        return cached.looks == nil || cached.looksKey != key
    }

    /// Stills and Live Photos' stills have looks; animations and videos not.
    static func hasLooks(_ kind: MediaKind) -> Bool { kind == .still || kind == .motionStill }
}
