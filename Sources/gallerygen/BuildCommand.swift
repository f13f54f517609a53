import ArgumentParser
import Foundation
import GalleryCore
import Configuration
import GalleryKit

/// `gallerygen build SOURCE --output OUT`.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site from SOURCE into OUT.",
        discussion: "SOURCE is never written to. Unreadable photos are skipped and named on stderr; the build goes on."
    )

    @Argument(help: "The folder of photos (every sub-folder is an album).")
    var source: String

    @Option(name: [.short, .long], help: "The folder to write the site into (not inside SOURCE).")
    var output: String

    @Option(help: "Settings file (default: SOURCE/gallery.yml when it exists).")
    var config: String?

    @Option(help: "Site title (default: Photos).")
    var title: String?

    @OptionGroup var renditions: RenditionOptions

    @Option(help: "Photos processed at once (default: all cores).")
    var jobs: Int?

    @Option(help: "Theme: a built-in name (default, slate) or a theme folder.")
    var theme: String?

    @Flag(name: .shortAndLong, help: "No progress output.")
    var quiet = false

    @Flag(help: "Keep running and rebuild when SOURCE changes (Ctrl-C to stop).")
    var watch = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let overrides = CommandLineOverrides(title: title, format: renditions.format, quality: renditions.quality,
                                             thumbnailBoxes: renditions.thumbnailSize?.boxes, previewBoxes: renditions.previewSize?.boxes,
                                             jobs: jobs, theme: theme)
        func resolve() throws -> (BuildSettings, SiteOptions) {
            try BuildConfiguration.resolve(
                source: URL(fileURLWithPath: source), output: URL(fileURLWithPath: output),
                configFile: config.map { URL(fileURLWithPath: $0) }, overrides: overrides)
        }
        do {
            let (settings, site) = try resolve()
            let watcher = watch ? try SourceWatcher(root: settings.source) : nil
            try await buildOnce(settings: settings, site: site)
            if !quiet {
                print("Site: \(settings.output.appendingPathComponent("index.html").path)")
            }
            while let watcher {
                if !quiet { FileHandle.standardError.write(Data("Watching \(settings.source.path) for changes…\n".utf8)) }
                _ = watcher.waitForChanges()
                do {
                    // Settings are read again: an edited gallery.yml takes effect.
                    let (settings, site) = try resolve()
                    try await buildOnce(settings: settings, site: site)
                } catch let error as CustomStringConvertible & Error {
                    // A bad edit (say, a broken album.yml) must not end the watch.
                    FileHandle.standardError.write(Data("gallerygen: error: \(error.description)\n".utf8))
                }
            }
        } catch let error as CustomStringConvertible & Error {
            throw ValidationFailure(message: error.description)
        }
    }
}

extension BuildCommand {
    func buildOnce(settings: BuildSettings, site: SiteOptions) async throws {
        let report = try await GalleryBuilder().build(settings: settings, site: site, quiet: quiet)
        if !quiet || !report.skipped.isEmpty {
            FileHandle.standardError.write(Data((report.summary + "\n").utf8))
        }
    }
}

/// A fatal error shown as one line.
struct ValidationFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension OutputFormat: ExpressibleByArgument {}

/// `WxH[,WxH…]`.
struct BoxList: ExpressibleByArgument {
    let boxes: [PixelSize]

    init?(argument: String) {
        var boxes: [PixelSize] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let box = PixelSize(parsing: part) else { return nil }
            boxes.append(box)
        }
        guard !boxes.isEmpty else { return nil }
        self.boxes = boxes
    }
}
