import Foundation
import BuildCache

/// Removes files an earlier build made that this build no longer produces, then
/// records what this build produced. Only files in the manifest are ever
/// deleted, so a user's own files in OUT stay.
struct PruneStep: BuildStep {
    let name = "prune"

    func run(_ context: inout BuildContext) async throws {
        let output = context.settings.output
        let stale = context.previousManifest.files.subtracting(context.producedFiles)
        for path in stale.sorted() {
            let url = output.appendingPathComponent(path)
            if unlink(url.path) == 0 { context.report.filesRemoved.append(path) }
            // Remove folders the deletion left empty (media shards, album folders).
            var folder = url.deletingLastPathComponent()
            while folder.path.count > output.path.count, rmdir(folder.path) == 0 {
                folder.deleteLastPathComponent()
            }
        }
        try BuildManifest(files: context.producedFiles).save(to: output)
    }
}
