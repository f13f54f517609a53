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
        var exports = ExportFolders()
        scanner.walk(ScanOptions(followSymlinks: settings.followSymlinks, foldersOnly: true)) { event in
            switch event {
            case .album(let path, let url?) where failure == nil:
                let name = (path.components + [SourceLayout.albumSidecarName]).joined(separator: "/")
                do throws(ConfigError) {
                    sidecars[path] = try AlbumSidecar.load(url, displayName: name)
                } catch {
                    // A broken sidecar stops the build: guessing could publish an
                    // album its owner meant to hide.
                    failure = error
                }
            default: exports.note(event)
            }
        }
        if let failure { throw failure }
        exports.apply(to: &sidecars, &context)
        context.sidecars = sidecars
        // people.yml, like an album.yml, is checked before any image work.
        context.people = try PeopleFile.load(source: settings.source)
        for (path, sidecar) in sidecars where sidecar.isPrivate {
            let (passphrase, inSource) = try Self.passphrase(of: path, sidecar, settings: settings)
            context.passphrases[path] = passphrase
            if let inSource { context.passphraseFiles.insert(inSource) }
        }
    }

    /// Reads a private album's passphrase from its `passphrase_file` (relative
    /// to its album.yml): it must exist outside OUT and hold a passphrase; one
    /// trailing line break is not part of it. Also returns the file's path in
    /// SOURCE when it is inside SOURCE, so the walk never publishes it.
    static func passphrase(of album: AlbumPath, _ sidecar: AlbumSettings, settings: BuildSettings) throws(ConfigError) -> ([UInt8], String?) {
        let sidecarName = (album.components + [SourceLayout.albumSidecarName]).joined(separator: "/")
        func fail(_ message: String) -> ConfigError {
            ConfigError(file: sidecarName, line: sidecar.passphraseLine, key: sidecar.passphraseFile == nil ? "private" : "passphrase_file", message: message)
        }
        guard !album.isRoot else {
            throw ConfigError(file: sidecarName, line: nil, key: "private", message: "the top album cannot be private: make a folder inside SOURCE private")
        }
        guard let name = sidecar.passphraseFile else { throw fail("a private album needs passphrase_file") }
        let folder = album.components.reduce(settings.source) { $0.appendingPathComponent($1, isDirectory: true) }
        let file = (name.hasPrefix("/") ? URL(fileURLWithPath: name) : folder.appendingPathComponent(name)).standardizedFileURL
        let real = file.resolvingSymlinksInPath().path
        let out = settings.output.standardizedFileURL.resolvingSymlinksInPath().path
        if real == out || real.hasPrefix(out + "/") {
            throw fail("\(name) is inside OUT, which is published: keep the passphrase outside it")
        }
        guard let data = FileManager.default.contents(atPath: real) else { throw fail("\(name) cannot be read") }
        var bytes = Array(data)
        if bytes.last == 10 { bytes.removeLast(); if bytes.last == 13 { bytes.removeLast() } }
        guard !bytes.isEmpty else { throw fail("\(name) is empty: it must hold the album's passphrase") }
        let source = settings.source.standardizedFileURL.resolvingSymlinksInPath().path
        let inSource = real.hasPrefix(source + "/") ? String(real.dropFirst(source.count + 1)) : nil
        return (bytes, inSource)
    }
}
