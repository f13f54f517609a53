import Foundation
import BuildCache

/// Opens OUT (see `OutputFolder.open`) before anything is written, and reads
/// what the previous build left.
struct PrepareOutputStep: BuildStep {
    let name = "prepare output"

    func run(_ context: inout BuildContext) async throws {
        let output = try OutputFolder.open(context.settings.output, source: context.settings.source)
        context.output = output
        context.previousState = output.loadState()
    }
}
