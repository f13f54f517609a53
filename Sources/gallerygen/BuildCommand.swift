import ArgumentParser
import Configuration
import Foundation
import GalleryCore
import GalleryKit

/// `gallerygen build SOURCE --output OUT`.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site from SOURCE into OUT.",
        discussion: """
        SOURCE is never written to. Every setting can also be set in SOURCE/gallery.yml \
        (see `gallerygen init`); flags override it. Settings are checked before any image work. \
        Unreadable photos are skipped and named on stderr; the build goes on.
        """
    )

    @Argument(help: "The folder of photos (every sub-folder is an album).")
    var source: String

    @Option(name: [.short, .long], help: "The folder to write the site into (not inside SOURCE).")
    var output: String

    @Option(help: "Settings file (default: SOURCE/gallery.yml when it exists).")
    var config: String?

    @OptionGroup var settings: BuildSettingOptions

    @Flag(name: .shortAndLong, help: "No progress output.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also list the ignored files and the time each build step took.")
    var verbose = false

    @Flag(help: "Keep running and rebuild when SOURCE changes (Ctrl-C to stop).")
    var watch = false

    @Option(help: ArgumentHelp(
        "Make one part of the media only, for a build split across machines: I/N (I from 0), auto/N (I from JOB_COMPLETION_INDEX, Kubernetes) or auto (Slurm's SLURM_ARRAY_TASK_*).",
        discussion: "Renders no pages: once every part is done, a build without --shard merges them and renders the site.",
        valueName: "part"))
    var shard: String?

    @Option(help: ArgumentHelp(
        "Render one part of the pages, after every --shard part is done: I/N, auto/N or auto, as --shard.",
        discussion: "Writes no media and no site-wide files: once every page part is done, a build without --pages merges them and writes the search index, sitemap and feed.",
        valueName: "part"))
    var pages: String?

    func run() async throws {
        func resolve() throws(ConfigError) -> ResolvedBuild {
            try BuildConfiguration.resolve(
                source: URL(fileURLWithPath: source), output: URL(fileURLWithPath: output),
                configFile: config.map { URL(fileURLWithPath: $0) }, flags: givenSettingFlags(settings))
        }
        do {
            let resolved = try resolve()
            let environment = ProcessInfo.processInfo.environment
            if shard != nil, pages != nil { throw ValidationFailure(message: "--shard and --pages are two phases: run them one after the other") }
            let part = try shard.map { (text) throws(Shard.ParseError) in try Shard.parse(text, environment: environment) }
                ?? pages.map { (text) throws(Shard.ParseError) in try Shard.parse(text, environment: environment, flag: "--pages", phase: .pages) }
            if part != nil, watch { throw ValidationFailure(message: "\(shard != nil ? "--shard" : "--pages") and --watch cannot be used together") }
            // Watching starts before the first build: an edit made during it is seen.
            let watcher = watch ? try SourceWatcher(root: resolved.settings.source) : nil
            let session = watch ? BuildSession() : nil
            if let watcher { session?.sourceChanged(watcher.takeChanges()) }
            try await Self.buildOnce(resolved, quiet: quiet, verbose: verbose, shard: part, session: session)
            if let watcher {
                try await Self.watch(watcher, source: resolved.settings.source, quiet: quiet, resolve: resolve) {
                    session?.sourceChanged(watcher.takeChanges())
                    try await Self.buildOnce($0, quiet: quiet, verbose: verbose, session: session)
                }
            }
        } catch let error as CustomStringConvertible & Error {
            throw ValidationFailure(message: error.description)
        }
    }

    /// Rebuilds with `build` after every change to SOURCE, until the process
    /// is stopped. Settings are read again each time (an edited gallery.yml
    /// takes effect), and a bad edit (a broken album.yml) does not end it.
    /// The wait for changes blocks a thread of its own, not one of the few
    /// that run async work (a preview server answers meanwhile).
    static func watch(_ watcher: SourceWatcher, source: URL, quiet: Bool, resolve: () throws(ConfigError) -> ResolvedBuild,
                      build: (ResolvedBuild) async throws -> Void) async throws {
        while true {
            watcher.resync()
            if !quiet { FileHandle.standardError.write(Data("Watching \(source.path) for changes…\n".utf8)) }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let waiting = UncheckedSendable(watcher)
                Thread.detachNewThread {
                    _ = waiting.value.waitForChanges()
                    done.resume()
                }
            }
            do {
                try await build(try resolve())
            } catch let error as CustomStringConvertible & Error {
                FileHandle.standardError.write(Data("gallerygen: error: \(error.description)\n".utf8))
            }
        }
    }

    static func buildOnce(_ resolved: ResolvedBuild, quiet: Bool, verbose: Bool, shard: Shard? = nil, session: BuildSession? = nil) async throws {
        let report = try await GalleryBuilder().build(resolved, quiet: quiet, shard: shard, session: session)
        if verbose {
            for path in report.ignored { FileHandle.standardError.write(Data("ignored \(DisplayText.oneLine(path))\n".utf8)) }
            for path in report.pairedRaw {
                FileHandle.standardError.write(Data("RAW shown through its JPEG/HEIC twin: \(DisplayText.oneLine(path))\n".utf8))
            }
            for step in report.stepSeconds {
                let peak = step.peakBytes.map { String(format: " (peak %.0f MB)", Double($0) / 1_048_576) } ?? ""
                FileHandle.standardError.write(Data(String(format: "step %@: %.2f s%@\n", step.name, step.seconds, peak).utf8))
            }
            for work in report.pageWork {
                FileHandle.standardError.write(Data(String(format: "  %@: %d files, %.2f s of work\n", work.kind, work.files, work.seconds).utf8))
            }
            for work in report.stepPhases {
                FileHandle.standardError.write(Data(String(format: "  %@, %@: %.2f s\n", work.step, work.phase, work.seconds).utf8))
            }
        }
        // Quiet: nothing on success; the summary only when a photo could not be published.
        if !quiet || !report.skipped.isEmpty {
            FileHandle.standardError.write(Data((report.summary + "\n").utf8))
        }
        if !quiet, shard == nil {
            // Written straight to the descriptor (print buffers when stdout is
            // a pipe or a file, and --watch runs on).
            FileHandle.standardOutput.write(Data("Site: \(resolved.settings.output.appendingPathComponent("index.html").path)\n".utf8))
        }
    }
}

/// A value handed to another thread that only that thread uses meanwhile.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A fatal error shown as one line.
struct ValidationFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
