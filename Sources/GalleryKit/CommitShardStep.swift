import SiteOutput
import Foundation

/// The last step of one part of a sharded build: its state (the files it
/// made and what it read of its media) goes to `OUT/.gallerygen/shards`,
/// where the next whole build finds it. Nothing is pruned and no page
/// rendered: the other parts are still at work.
struct CommitShardStep: BuildStep {
    let name = "commit part"

    func run(_ context: inout BuildContext) async throws {
        let output = try context.openOutput()
        // What a killed attempt of this part journaled is listed too: the
        // whole build keeps what is part of the site and prunes the rest.
        let files = context.producedFiles.set.union(output.interruptedFiles).sorted()
        // A page part hands on its pages; the photos are the media parts' to hand on.
        let photos = context.shard?.phase == .pages ? [:] : context.photoCache
        try output.commitShard(BuildState(files: files, photos: photos, pages: context.pageRecords))
        context.report.filesWritten = output.writtenPaths
    }
}
