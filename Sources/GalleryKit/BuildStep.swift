/// One named stage of a build, run in order over the shared context
/// (the Publish model: a build is a list of steps).
public protocol BuildStep: Sendable {
    /// Shown in the step timings of `build --verbose`.
    var name: String { get }
    /// Does the step's work.
    func run(_ context: inout BuildContext) async throws
    /// The step lets go of much of what it held when it ends (the previous
    /// state's entries, a plan of every page): the heap's free memory is
    /// handed back after it (`MemoryTuning.releaseFreeMemory`).
    var letsGoOfMuch: Bool { get }
}

extension BuildStep {
    public var letsGoOfMuch: Bool { false }
}

extension Duration {
    /// The duration in seconds, as the report's timings give it.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Times a step's phases one after the other, into the report's
/// `stepPhases`: what `-v` shows of where a long step's seconds went.
struct PhaseClock {
    let step: String
    private var start = ContinuousClock.now

    init(step: String) { self.step = step }

    mutating func end(_ phase: String, in report: inout BuildReport) {
        let now = ContinuousClock.now
        report.stepPhases.append((step, phase, (now - start).inSeconds))
        start = now
    }
}
