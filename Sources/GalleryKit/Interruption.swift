import Dispatch
import Video
import Foundation
import Synchronization

/// What Ctrl-C (SIGINT) and a `kill` or a scheduler's stop (SIGTERM) do to
/// a running build or watch: the programs it started (ffmpeg) are killed,
/// one line says what happened, and the process ends with 128 + the signal's
/// number. Nothing else needs doing: every file reaches OUT by `rename`, and
/// the journal lets the next build finish what this one started.
public enum Interruption {
    /// Kept alive for the life of the process.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    /// Builds under way: a watch or `serve` stopped between builds leaves a
    /// whole site, and says only that it stopped.
    private static let buildsRunning = Atomic<Int>(0)

    /// Runs `body` as a build (an interruption then says the next build completes the site).
    static func asBuild<T>(_ body: () async throws -> T) async rethrows -> T {
        buildsRunning.add(1, ordering: .sequentiallyConsistent)
        defer { buildsRunning.subtract(1, ordering: .sequentiallyConsistent) }
        return try await body()
    }

    /// Installs the handlers (once, at start).
    public static func install() {
        let queue = DispatchQueue(label: "gallerygen.signals")
        for (number, name) in [(SIGINT, "interrupted"), (SIGTERM, "terminated")] {
            // Ignored by default so only the source below sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                ToolRunner.stopAll()
                let midBuild = buildsRunning.load(ordering: .sequentiallyConsistent) > 0
                FileHandle.standardError.write(Data("\ngallerygen: stopped (\(name))\(midBuild ? " during a build; the next build completes the site" : "")\n".utf8))
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}
