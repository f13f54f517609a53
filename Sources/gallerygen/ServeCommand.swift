import ArgumentParser
import Configuration
import Foundation
import GalleryCore
import GalleryKit
import Preview

/// `gallerygen serve SOURCE`: build, watch and serve, for looking at the site
/// while editing it.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build SOURCE, serve the site on this machine and rebuild it when SOURCE changes.",
        discussion: """
        Open pages reload after each build. The site is served as a static host would serve it \
        (video seeking, caching of media/); the pages in OUT are the ones `build` makes. \
        Without --output the site goes to a folder in ~/.cache/gallerygen/serve/.
        """
    )

    @Argument(help: "The folder of photos (every sub-folder is an album).")
    var source: String

    @Option(name: [.short, .long], help: "The folder to write the site into (default: one in ~/.cache/gallerygen/serve/).")
    var output: String?

    @Option(help: "Settings file (default: SOURCE/gallery.yml when it exists).")
    var config: String?

    @Option(help: "The port to listen on (0: any free one).")
    var port: UInt16 = 8080

    @Option(help: "The address to listen on (0.0.0.0 to be seen by other machines of the network).")
    var host: String = "127.0.0.1"

    @OptionGroup var settings: BuildSettingOptions

    @Flag(name: .shortAndLong, help: "No progress output.")
    var quiet = false

    func run() async throws {
        let sourceURL = URL(fileURLWithPath: source).standardizedFileURL
        let outputURL = output.map { URL(fileURLWithPath: $0) } ?? Self.defaultOutput(for: sourceURL)
        func resolve() throws(ConfigError) -> ResolvedBuild {
            try BuildConfiguration.resolve(source: sourceURL, output: outputURL,
                                           configFile: config.map { URL(fileURLWithPath: $0) }, flags: givenSettingFlags(settings))
        }
        do {
            let resolved = try resolve()
            // A busy port is said now, not after the first build.
            try SiteServer.checkCanListen(host: host, port: port)
            let watcher = try SourceWatcher(root: resolved.settings.source)
            try await BuildCommand.buildOnce(resolved, quiet: quiet, verbose: false)
            // The faces review page, for this machine only (SiteServer answers it to no other).
            let review = resolved.settings.faces == .auto ? ReviewRoutes(review: FaceReview(settings: resolved.settings)) : nil
            let server = try SiteServer(root: resolved.settings.output, host: host, port: port, extras: review)
            Task {
                do {
                    try await server.run()
                } catch {
                    // The socket failing ends the preview: nothing would be served.
                    FileHandle.standardError.write(Data("gallerygen: error: the server stopped: \(error)\n".utf8))
                    Foundation.exit(1)
                }
            }
            let listening = try await server.listeningPort()
            let shownHost = host.contains(":") ? "[\(host)]" : host
            // Written straight to the descriptor: a script waiting for this line reads a pipe.
            FileHandle.standardOutput.write(Data("Serving \(server.root.path) at http://\(shownHost):\(listening)/ (Ctrl-C to stop)\n".utf8))
            if review != nil {
                FileHandle.standardOutput.write(Data("Name the faces found at http://\(shownHost):\(listening)\(FaceReview.path) (this machine only)\n".utf8))
            }
            try await BuildCommand.watch(watcher, source: resolved.settings.source, quiet: quiet, resolve: resolve) { build in
                try await BuildCommand.buildOnce(build, quiet: quiet, verbose: false)
                server.siteChanged()
            }
        } catch let error as CustomStringConvertible & Error {
            throw ValidationFailure(message: error.description)
        }
    }

    /// `~/.cache/gallerygen/serve/<folder name>-<hash of its path>/site`
    /// ($XDG_CACHE_HOME when set): one per library, kept between runs so the
    /// next `serve` is a quick rebuild.
    static func defaultOutput(for source: URL) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        var hasher = StableHash()
        hasher.update(source.path)
        let safe = String(source.lastPathComponent.unicodeScalars.prefix(40).map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "-" })
        let name = safe + "-" + hasher.finalize().prefix(12)
        return cache.appendingPathComponent("gallerygen/serve/\(name)/site")
    }
}
