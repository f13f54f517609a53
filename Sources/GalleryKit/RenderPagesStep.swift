import Foundation
import GalleryCore
import Rendering

/// Assembles albums and writes every page, skipping pages whose bytes are unchanged.
struct RenderPagesStep: BuildStep {
    let name = "render pages"

    func run(_ context: inout BuildContext) async throws {
        let theme = try Theme.load(context.site.theme)
        let gallery = Gallery.assemble(title: context.settings.title, photos: context.photos,
                                       sidecars: context.sidecars, options: context.site)
        context.gallery = gallery
        let renderer = SiteRenderer(theme: theme, gallery: gallery, options: context.site)
        let pages = renderer.pages()
        for page in pages {
            if try AtomicFile.writeIfChanged(Array(page.html.utf8), to: context.settings.output.appendingPathComponent(page.path)) {
                context.report.filesWritten.append(page.path)
            }
            context.producedFiles.insert(page.path)
        }
        context.report.pages = pages.count
        for (path, bytes) in theme.staticFiles {
            let relative = "static/" + path
            if try AtomicFile.writeIfChanged(bytes, to: context.settings.output.appendingPathComponent(relative)) {
                context.report.filesWritten.append(relative)
            }
            context.producedFiles.insert(relative)
        }
    }
}
