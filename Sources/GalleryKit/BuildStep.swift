/// One named stage of a build, run in order over the shared context
/// (the Publish model: a build is a list of steps).
public protocol BuildStep: Sendable {
    /// Shown in the step timings of `build --verbose`.
    var name: String { get }
    /// Does the step's work.
    func run(_ context: inout BuildContext) async throws
}
