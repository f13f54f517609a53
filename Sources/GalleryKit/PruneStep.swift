import BuildCache
import Foundation

/// Removes files an earlier build made that this build no longer produces,
/// then commits the new state and closes the journal. Only files the previous
/// state lists (or an interrupted build journaled) are ever deleted, so a
/// user's own files in OUT stay.
struct PruneStep: BuildStep {
    let name = "prune"

    func run(_ context: inout BuildContext) async throws {
        let output = context.settings.output
        let owned = Set(context.previousState.files).union(context.interruptedFiles)
        let stale = owned.subtracting(context.producedFiles)
        for path in stale.sorted() {
            let url = output.appendingPathComponent(path)
            if unlink(url.path) == 0 { context.report.filesRemoved.append(path) }
            // Remove folders the deletion left empty (media shards, album folders).
            var folder = url.deletingLastPathComponent()
            while folder.path.count > output.path.count, rmdir(folder.path) == 0 {
                folder.deleteLastPathComponent()
            }
        }
        let state = BuildState(files: Array(context.producedFiles), photos: context.photoCache,
                               siteFingerprint: context.siteFingerprint)
        do {
            // `save` writes nothing when the file already holds these bytes
            // (a no-op build), so the state needs no comparison here.
            try state.save(to: output)
        } catch {
            throw GalleryError.writeFailed(output.appendingPathComponent(BuildState.folderName).path, reason: ErrorText.describe(error))
        }
        context.writer.journal.finish()
        context.report.filesWritten = context.writer.writtenPaths
        context.lock?.release()
    }
}
