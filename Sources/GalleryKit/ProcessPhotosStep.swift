import BuildCache
import Configuration
import Foundation
import GalleryCore
import Scanning

/// Scans SOURCE and processes photos while the scan is still running, with at
/// most `jobs` photos in flight so decoded bitmaps never pile up.
struct ProcessPhotosStep: BuildStep {
    let name = "process photos"

    func run(_ context: inout BuildContext) async throws {
        let settings = context.settings
        let progress = context.progress
        let processor = PhotoProcessor(settings: settings, cache: context.previousState.photos, writer: context.writer)
        let scanner = SourceScanner(root: settings.source, excluding: [settings.output])
        // Files travel in small batches: one stream hand-off per photo was a
        // measurable share of a no-op rebuild of 30,000 photos.
        let (stream, continuation) = AsyncStream<[SourceFile]>.makeStream()
        let sidecars = SidecarCollector()
        let walker = Thread {
            var batch: [SourceFile] = []
            SourceScanner.walk(scanner.root, components: [], excluded: scanner.excluded, followSymlinks: settings.followSymlinks) { event in
                switch event {
                case .photo(let file):
                    progress.photoFound()
                    batch.append(file)
                    if batch.count == 32 {
                        continuation.yield(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                case .unreadable(let path, let reason):
                    progress.message("skipped folder \(DisplayText.oneLine(path.isEmpty ? "." : path)): \(reason)")
                case .album(let path, let sidecar?):
                    sidecars.load(path, sidecar)
                case .album:
                    break
                }
            }
            if !batch.isEmpty { continuation.yield(batch) }
            progress.scanDone()
            continuation.finish()
        }
        walker.stackSize = 4 << 20
        walker.start()

        var photos: [Photo] = []
        var cache: [String: CachedPhoto] = [:]
        var report = context.report
        func record(_ outcome: PhotoOutcome) {
            progress.photoDone()
            switch outcome {
            case .published(let photo, let made, let reused, let entry, let note):
                if let note { progress.message("note: \(photo.source.displayPath): \(note)") }
                photos.append(photo)
                cache[BuildState.key(for: photo.source.relativePath)] = entry
                report.published += 1
                report.renditionsMade += made
                report.renditionsReused += reused
            case .skipped(let file, let reason):
                report.skipped.append(SkippedPhoto(path: file.relativePath, reason: reason))
                progress.message("skipped \(file.displayPath): \(reason)")
            }
        }
        await withTaskGroup(of: PhotoOutcome.self) { group in
            var inFlight = 0
            for await batch in stream {
                for file in batch {
                    // An unchanged photo with every rendition in place costs a
                    // plan and a few access() calls: cheaper than a task.
                    let known: (CachedPhoto, PhotoProcessor.Plan)?
                    switch processor.triage(file) {
                    case .unchanged(let outcome):
                        record(outcome)
                        continue
                    case .incomplete(let cached, let plan): known = (cached, plan)
                    case .unknown: known = nil
                    }
                    if inFlight >= settings.jobs, let outcome = await group.next() {
                        record(outcome)
                        inFlight -= 1
                    }
                    group.addTask { processor.process(file, known: known) }
                    inFlight += 1
                }
            }
            for await outcome in group { record(outcome) }
        }
        progress.finish()
        // The previous cache has served; its replacement is `cache`. Holding
        // both through page rendering cost ~0.5 KB per photo at the peak.
        context.previousState.photos = [:]
        if let error = sidecars.firstError { throw error }
        context.sidecars = sidecars.settings
        context.photoCache = cache
        // Scan order depends on job timing; the site must not.
        context.photos = photos.sorted { $0.source.relativePath < $1.source.relativePath }
        context.report = report
        for photo in photos { context.producedFiles.formUnion(photo.renditions.map(\.path)) }
    }
}

/// Reads album sidecars as the walk finds them (on the walker's thread).
final class SidecarCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var loaded: [AlbumPath: AlbumSettings] = [:]
    private var errors: [ConfigError] = []

    func load(_ path: AlbumPath, _ url: URL) {
        let name = (path.components + [SourceScanner.sidecarName]).joined(separator: "/")
        do {
            let settings = try AlbumSidecar.load(url, displayName: name)
            lock.withLock { loaded[path] = settings }
        } catch {
            lock.withLock { errors.append(error) }
        }
    }

    var settings: [AlbumPath: AlbumSettings] { lock.withLock { loaded } }

    /// A broken sidecar stops the build: guessing could publish an album its
    /// owner meant to hide.
    var firstError: ConfigError? { lock.withLock { errors.first } }
}
