import BuildCache
import Foundation
import GalleryCore
import Rendering

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
    static let rendererVersion = 2

    func run(_ context: inout BuildContext) async throws {
        let theme = context.theme
        let output = try context.openOutput()
        let gallery = Gallery.assemble(title: context.settings.title, photos: context.items,
                                       sidecars: context.sidecars, options: context.settings.values)
        context.gallery = gallery
        let fingerprint = Self.fingerprint(context, theme: theme)
        context.siteFingerprint = fingerprint

        let previous = context.previousState
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

        let renderer = SiteRenderer(theme: theme, gallery: gallery, options: context.settings.values)
        var produced = context.producedFiles
        var count = 0
        try renderer.forEachPage { page in
            try output.writeIfChanged(Array(page.html.utf8), to: page.path)
            produced.insert(page.path)
            if page.path.hasSuffix(".html") { count += 1 }  // the search index's scripts are not pages
        }
        context.producedFiles = produced
        context.report.pages = count
        for (path, bytes) in theme.staticFiles {
            try output.writeIfChanged(bytes, to: "static/" + path)
            context.producedFiles.insert("static/" + path)
        }
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
