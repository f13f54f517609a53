import Foundation
import Rendering
import SiteOutput
import Synchronization

extension RenderPagesStep {
    /// Runs jobs `0..<count` (`job` makes each) on `workers` threads, each
    /// writing what it rendered (only when the bytes changed) before taking
    /// the next job, so memory holds a few pages, not the site. A job is
    /// made when a thread takes it: made all first, the jobs of a cold build
    /// of 100,000 items held 205 MB (each its renderer, captured) of its 400.
    /// The first failure stops the others. A job's files are nil when they
    /// are its one file `onlyFile` names (an item page: nearly every page),
    /// not a list of one path for each of a million pages.
    static func render(_ count: Int, _ job: @Sendable (Int) -> PageJob, onlyFile: @Sendable (Int) -> String, workers: Int, output: OutputFolder,
                       keeping usersOwn: Set<String> = []) throws
        -> (paths: [[String]?], work: [PageJob.Kind: (files: Int, seconds: Double)]) {
        guard count > 0 else { return ([], [:]) }
        let shared = Mutex(RenderProgress(paths: Array(repeating: nil, count: count)))
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
            var paths: [(Int, [String])] = []
            var work: [PageJob.Kind: (files: Int, seconds: Double)] = [:]
            var failure: (any Error)?
            while failure == nil {
                let next: Int? = shared.withLock { progress in
                    guard progress.failure == nil, progress.next < count else { return nil }
                    defer { progress.next += 1 }
                    return progress.next
                }
                guard let index = next else { break }
                let start = ContinuousClock.now
                do {
                    let job = job(index)
                    let pages = try job.render()
                    let only = onlyFile(index)
                    var written: [String] = []
                    for page in pages where !usersOwn.contains(page.path) {
                        // The plan's string for the page's one file, not the renderer's copy: OUT's
                        // list of what was written keeps it, and a million copies were 74 bytes an item.
                        let path = page.path == only ? only : page.path
                        if !page.isKept { try output.writeIfChanged(page.bytes ?? Array(page.html.utf8), to: path) }
                        written.append(path)
                    }
                    if written.count != 1 || written[0] != only { paths.append((index, written)) }
                    let seconds = (ContinuousClock.now - start).inSeconds
                    work[job.kind, default: (0, 0)].files += pages.count
                    work[job.kind, default: (0, 0)].seconds += seconds
                } catch {
                    failure = error
                }
            }
            shared.withLock { progress in
                for (index, written) in paths { progress.paths[index] = written }
                for (kind, done) in work {
                    progress.work[kind, default: (0, 0)].files += done.files
                    progress.work[kind, default: (0, 0)].seconds += done.seconds
                }
                if progress.failure == nil, let failure { progress.failure = failure }
            }
        }
        let result = shared.withLock { $0 }
        if let failure = result.failure { throw failure }
        return (result.paths, result.work)
    }

    /// What the rendering threads share.
    struct RenderProgress: @unchecked Sendable {
        var next = 0
        /// Each job's files (nil: its one file, named by the caller).
        var paths: [[String]?]
        var work: [PageJob.Kind: (files: Int, seconds: Double)] = [:]
        var failure: (any Error)?
    }
}
