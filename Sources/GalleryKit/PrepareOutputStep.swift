import Foundation
import BuildCache

/// Checks SOURCE and opens OUT (see `OutputFolder.open`) before anything is
/// written, and reads what the previous build left.
struct PrepareOutputStep: BuildStep {
    let name = "prepare output"

    func run(_ context: inout BuildContext) async throws {
        let source = context.settings.source.standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GalleryError.sourceMissing(context.settings.source.path)
        }
        let output = try OutputFolder.open(context.settings.output, source: context.settings.source)
        context.output = output
        context.previousState = output.loadState()
    }
}
