import Foundation
import SiteOutput

/// Opens OUT (see `OutputFolder.open`) before anything is written, and reads
/// what the previous build left: the whole build's state, and the states of
/// the parts of a sharded build finished since (a whole build merges them
/// all and so makes none of their renditions again; a part reads its own).
struct PrepareOutputStep: BuildStep {
    let name = "prepare output"

    func run(_ context: inout BuildContext) async throws {
        let output = try OutputFolder.open(context.settings.output, source: context.settings.source, shard: context.shard)
        context.output = output
        var state = output.loadState()
        let parts = context.shard == nil ? output.loadShardStates() : (output.loadOwnShardState().map { [$0] } ?? [])
        for part in parts {
            state.photos.merge(part.photos) { _, part in part }
            state.files += part.files  // owned: kept if produced, pruned if not
        }
        context.previousState = state
    }
}
