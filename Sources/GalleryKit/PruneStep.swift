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
        // Nothing the state holds changed (a no-op): every page was taken
        // whole and the inputs' digest (each item's renditions' paths, the
        // downloads', the theme's) is the previous build's, so the files
        // produced are the previous build's. With nothing written or left
        // by a killed build there is nothing to prune, nor a state to encode.
        let unchanged = context.photoCacheUnchanged && context.pagesReused && !context.mergedParts && context.shard == nil
            && context.siteInputs == context.previousState.siteInputs
        if unchanged, output.interruptedFiles.isEmpty, output.wroteNothing {
            output.commitUnchanged()
            return
        }
        let previous = context.previousState.files
        let produced = context.producedFiles.set
        let (removed, keptAllOwned) = output.prune(owned: previous, keeping: produced)
        context.report.filesRemoved = removed
        // The same files as before (a caption): the previous list, sorted already.
        let sameFiles = keptAllOwned && previous.count == produced.count
        if sameFiles, unchanged {
            output.commitUnchanged()
        } else {
            var state = BuildState(files: sameFiles ? previous : Self.sorted(produced, previous: previous), photos: context.photoCache,
                                   pages: context.pageRecords)
            state.siteInputs = context.siteInputs
            try output.commit(state)
        }
        context.report.filesWritten = output.writtenPaths
    }

    /// `produced` in order, made from the previous build's list (sorted
    /// already): the files it keeps, merged with the few new ones sorted.
    /// Sorting 300,000 paths again was a tenth of adding one photo.
    static func sorted(_ produced: Set<String>, previous: [String]) -> [String] {
        let kept = previous.filter(produced.contains)
        guard kept.count < produced.count else { return kept }
        let known = Set(kept)
        let new = produced.filter { !known.contains($0) }.sorted()
        var merged: [String] = []
        merged.reserveCapacity(produced.count)
        var i = kept.startIndex, j = new.startIndex
        while i < kept.endIndex, j < new.endIndex {
            if kept[i] < new[j] { merged.append(kept[i]); i += 1 } else { merged.append(new[j]); j += 1 }
        }
        merged += kept[i...]
        merged += new[j...]
        return merged
    }
}
