import Configuration
import Foundation
import GalleryCore
import Scanning

/// Checks SOURCE, then reads and checks every album sidecar (`album.yml`)
/// before OUT is touched or any image work starts: a broken one stops the
/// build at once, naming the file, line and key, instead of after minutes of
/// encoding. It walks SOURCE's folders only, by the same rules as the photo
/// walk (hidden folders, OUT, symbolic links).
struct CheckSourceStep: BuildStep {
    let name = "check source and album sidecars"

    func run(_ context: inout BuildContext) async throws {
        let settings = context.settings
        let real = settings.source.standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GalleryError.sourceMissing(settings.source.path)
        }
        let scanner = SourceScanner(root: settings.source, excluding: [settings.output])
        var sidecars: [AlbumPath: AlbumSettings] = [:]
        var failure: ConfigError?
        scanner.walk(ScanOptions(followSymlinks: settings.followSymlinks, foldersOnly: true)) { event in
            guard failure == nil, case .album(let path, let url?) = event else { return }
            let name = (path.components + [SourceLayout.albumSidecarName]).joined(separator: "/")
            do throws(ConfigError) {
                sidecars[path] = try AlbumSidecar.load(url, displayName: name)
            } catch {
                // A broken sidecar stops the build: guessing could publish an
                // album its owner meant to hide.
                failure = error
            }
        }
        if let failure { throw failure }
        context.sidecars = sidecars
    }
}
