import Foundation
import BuildCache

/// Checks SOURCE and OUT before anything is written: SOURCE must be a folder,
/// OUT must not be SOURCE or inside it, and OUT must be writable.
struct PrepareOutputStep: BuildStep {
    let name = "prepare output"

    func run(_ context: inout BuildContext) async throws {
        let fm = FileManager.default
        let source = context.settings.source.standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: source.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GalleryError.sourceMissing(context.settings.source.path)
        }
        let output = context.settings.output.standardizedFileURL
        // Resolve symlinks of the part of OUT that exists, so a link cannot hide
        // that OUT is really inside SOURCE.
        var existing = output
        var tail: [String] = []
        while !fm.fileExists(atPath: existing.path), existing.path != "/" {
            tail.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for part in tail { resolved.appendPathComponent(part) }
        let sourcePath = source.path.hasSuffix("/") ? source.path : source.path + "/"
        if resolved.path == source.path || resolved.path.hasPrefix(sourcePath) {
            throw GalleryError.outputInsideSource(output: context.settings.output.path, source: context.settings.source.path)
        }
        // mkdir one level at a time so a failure names its real cause.
        var created = existing
        for part in tail {
            created.appendPathComponent(part)
            if mkdir(created.path, 0o755) != 0, errno != EEXIST {
                throw GalleryError.outputNotWritable(output.path, reason: String(cString: strerror(errno)))
            }
        }
        guard fm.fileExists(atPath: output.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GalleryError.outputNotWritable(output.path, reason: "it exists and is not a folder")
        }
        guard access(output.path, W_OK) == 0 else {
            throw GalleryError.outputNotWritable(output.path, reason: String(cString: strerror(errno)))
        }
        do {
            context.lock = try BuildLock(output: output)
        } catch let error as BuildLockError {
            throw GalleryError.invalidSetting(error.description)
        }
        context.previousState = BuildState.load(from: output)
        let journal = context.writer.journal
        if journal.wasInterrupted {
            // A build was killed: what it journaled is ours, and its
            // half-written temporary files must go.
            context.interruptedFiles = Set(journal.leftover())
            Self.removeTemporaryFiles(in: output)
        }
    }

    /// Deletes the temporary files an interrupted write leaves.
    static func removeTemporaryFiles(in output: URL) {
        guard let walker = FileManager.default.enumerator(atPath: output.path) else { return }
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if AtomicFile.isTemporaryName(name) {
                unlink(output.appendingPathComponent(relative).path)
            }
        }
    }
}
