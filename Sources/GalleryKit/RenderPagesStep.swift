import BuildCache
import Foundation
import GalleryCore
import Planning
import Rendering
import Synchronization

/// Assembles albums and writes every page and the theme's static files.
///
/// Pages are a pure function of their inputs, so the step first hashes those
/// inputs (photos, sidecars, settings, theme, time zone). If the hash matches
/// the previous build's and every file it made is still there, nothing is
/// rendered at all; otherwise every page is rendered and only pages whose
/// bytes changed are written.
struct RenderPagesStep: BuildStep {
    let name = "render pages"

    /// Bumped whenever the renderer's output changes for the same inputs.
    static let rendererVersion = 3

    func run(_ context: inout BuildContext) async throws {
        let theme = context.theme
        let output = try context.openOutput()
        let gallery = Gallery.assemble(title: context.settings.title, photos: context.items,
                                       sidecars: context.sidecars, options: context.settings.values)
        context.gallery = gallery
        let fingerprint = Self.fingerprint(context, theme: theme)
        context.siteFingerprint = fingerprint

        let previous = context.previousState
        if context.settings.values.baseURL.isEmpty, previous.files.isEmpty {
            // Said on the first build into OUT only: a site kept without an
            // address on purpose should not be nagged at every build.
            context.report.advice.append(Self.baseURLAdvice)
        }
        if fingerprint == previous.siteFingerprint, !previous.files.isEmpty {
            // Pages and static files only: every rendition was just checked
            // for, photo by photo, while planning.
            let pages = previous.files.filter { !$0.hasPrefix("media/") }
            if pages.allSatisfy(output.contains) {
                // Same inputs, same outputs: the previous build's files are this build's.
                context.producedFiles.formUnion(pages)
                context.report.pages = pages.filter { $0.hasSuffix(".html") }.count
                return
            }
        }

        let renderer = SiteRenderer(theme: theme, gallery: gallery, options: context.settings.values, downloads: context.downloads)
        // A robots.txt in OUT that no build of ours wrote is the user's: kept.
        let usersOwn: Set<String> = output.contains(SiteRenderer.robotsFile) && !previous.files.contains(SiteRenderer.robotsFile)
            ? [SiteRenderer.robotsFile] : []
        let rendered = try Self.render(renderer.pageJobs(), workers: context.settings.jobs, output: output, keeping: usersOwn)
        context.producedFiles.formUnion(rendered.paths)
        context.report.pages = rendered.paths.count { $0.hasSuffix(".html") }  // the search index's scripts are not pages
        context.report.pageWork = PageJob.Kind.allCases.compactMap { kind in
            rendered.work[kind].map { (kind.rawValue, $0.files, $0.seconds) }
        }
        for (path, bytes) in theme.staticFiles {
            try output.writeIfChanged(bytes, to: "static/" + path)
            context.producedFiles.insert("static/" + path)
        }
    }

    /// Why a site might want `base_url`.
    static let baseURLAdvice = "Link previews in chats and social networks (OpenGraph, Twitter cards), a sitemap and absolute feed addresses need the site's address: set base_url: https://… in gallery.yml."

    /// Runs `jobs` on `workers` threads, each writing what it rendered (only
    /// when the bytes changed) before taking the next job, so memory holds a
    /// few pages, not the site. The first failure stops the others.
    static func render(_ jobs: [PageJob], workers: Int, output: OutputFolder, keeping usersOwn: Set<String> = []) throws
        -> (paths: [String], work: [PageJob.Kind: (files: Int, seconds: Double)]) {
        let shared = Mutex(RenderProgress())
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, jobs.count))) { _ in
            var paths: [String] = []
            var work: [PageJob.Kind: (files: Int, seconds: Double)] = [:]
            var failure: (any Error)?
            while failure == nil {
                let next: Int? = shared.withLock { progress in
                    guard progress.failure == nil, progress.next < jobs.count else { return nil }
                    defer { progress.next += 1 }
                    return progress.next
                }
                guard let index = next else { break }
                let start = ContinuousClock.now
                do {
                    let pages = try jobs[index].render()
                    for page in pages where !usersOwn.contains(page.path) {
                        try output.writeIfChanged(Array(page.html.utf8), to: page.path)
                        paths.append(page.path)
                    }
                    let elapsed = ContinuousClock.now - start
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    work[jobs[index].kind, default: (0, 0)].files += pages.count
                    work[jobs[index].kind, default: (0, 0)].seconds += seconds
                } catch {
                    failure = error
                }
            }
            shared.withLock { progress in
                progress.paths += paths
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
        var paths: [String] = []
        var work: [PageJob.Kind: (files: Int, seconds: Double)] = [:]
        var failure: (any Error)?
    }

    /// A hash of everything the pages depend on.
    static func fingerprint(_ context: BuildContext, theme: Theme) -> String {
        var hasher = StableHash()
        hasher.update("renderer \(rendererVersion)")
        hasher.update(theme.fingerprint)
        // Every setting that can change the output (titles, paging, rendition
        // sizes, originals…), in schema order.
        hasher.update(context.settings.values.canonicalText)
        // File-time dates are shown in the building machine's zone.
        hasher.update(TimeZone.current.identifier)
        for (album, download) in context.downloads.sorted(by: { $0.key < $1.key }) {
            hasher.update("\(album.description) \(download.path) \(download.bytes)")
        }
        for (path, settings) in context.sidecars.sorted(by: { $0.key < $1.key }) {
            hasher.update(path.description)
            hasher.update(String(describing: settings))
        }
        for photo in context.items {
            hasher.update(photo.source.relativePath)
            hasher.update(photo.contentHash)
            hasher.update(String(photo.source.modifiedNanoseconds))
            // What pages show that the image bytes do not decide: the words
            // (a sidecar edit), and a Live Photo's clip.
            let words = photo.metadata.words
            hasher.update("\(words.title ?? "")\u{1}\(words.caption ?? "")\u{1}\(words.keywords.joined(separator: "\u{1}"))\u{1}\(words.rating ?? 0)\u{1}\(words.people.joined(separator: "\u{1}"))")
            for rendition in photo.renditions where rendition.spec.role == .video { hasher.update(rendition.path) }
        }
        return hasher.finalize()
    }
}
