import SiteOutput
import Foundation

/// Removes files an earlier build made that this build no longer produces,
/// then commits the new state (which closes the journal and releases the
/// lock). Only files the previous state lists (or an interrupted build
/// journaled) are ever deleted, so a user's own files in OUT stay.
struct PruneStep: BuildStep {
    let name = "prune"

    func run(_ context: inout BuildContext) async throws {
        let output = try context.openOutput()
        let previous = context.previousState.files
        let (removed, keptAllOwned) = output.prune(owned: previous, keeping: context.producedFiles)
        context.report.filesRemoved = removed
        // The same files as before (a no-op, a caption): the previous list, sorted already.
        let sameFiles = keptAllOwned && previous.count == context.producedFiles.count
        // Nothing the state holds changed (a no-op): it is not even encoded.
        if sameFiles, context.photoCacheUnchanged, context.pagesReused, !context.mergedParts, context.shard == nil,
           context.siteInputs == context.previousState.siteInputs {
            output.commitUnchanged()
        } else {
            var state = BuildState(files: sameFiles ? previous : Array(context.producedFiles), photos: context.photoCache,
                                   pages: context.pageRecords)
            state.siteInputs = context.siteInputs
            try output.commit(state)
        }
        context.report.filesWritten = output.writtenPaths
    }
}
