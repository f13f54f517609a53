import Foundation
import Synchronization

/// Why an external program (ffmpeg, ffprobe) gave no usable result, worded
/// like a bad file: the caller adds the file's name.
public enum ExternalToolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program is not installed (or not where gallery.yml says).
    case missing(tool: String, hint: String)
    /// It ran past its wall-clock limit and was killed.
    case timedOut(tool: String, seconds: Double)
    /// It exited with a failure status; `message` is its last error line.
    case failed(tool: String, status: Int32, message: String)
    /// It was killed by a signal (a crash).
    case crashed(tool: String, signal: Int32)
    /// It could not be started.
    case notStarted(tool: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let tool, let hint): return "\(tool) is not installed (\(hint))"
        case .timedOut(let tool, let seconds): return String(format: "%@ took longer than %.0f s and was stopped", tool, seconds)
        case .failed(let tool, let status, let message):
            return message.isEmpty ? "\(tool) failed (exit status \(status))" : "\(tool) failed: \(message)"
        case .crashed(let tool, let signal): return "\(tool) crashed (signal \(signal))"
        case .notStarted(let tool, let reason): return "\(tool) could not be started: \(reason)"
        }
    }
}

/// What a program printed.
public struct ToolOutput: Sendable {
    /// Standard output (at most `ToolRunner.maximumOutput` bytes).
    public var standardOutput: [UInt8]
    /// The end of standard error (at most `ToolRunner.maximumErrorTail` bytes).
    public var standardErrorTail: String
}

/// Runs external programs with a wall-clock limit, collecting their output
/// without ever blocking on a full pipe, and names every way they can fail.
/// The one place gallerygen starts another program.
public enum ToolRunner {
    /// Standard output kept (ffprobe's JSON is a few KiB; a poster PNG a few MB).
    public static let maximumOutput = 64 << 20
    /// The tail of standard error kept for the message.
    public static let maximumErrorTail = 16 << 10

    /// The programs running now, so a build that is stopped (Ctrl-C, a
    /// scheduler's SIGTERM) can stop them too: SIGTERM reaches gallerygen
    /// alone, and an ffmpeg left behind would go on writing into OUT.
    private static let running = Mutex<Set<pid_t>>([])

    /// Kills every program gallerygen started that is still running.
    public static func stopAll() {
        for pid in running.withLock({ $0 }) { kill(pid, SIGKILL) }
    }

    /// Finds `name` on PATH, or checks `configured` (a path from gallery.yml).
    public static func locate(_ name: String, configured: String? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fm = FileManager.default
        if let configured, !configured.isEmpty {
            return fm.isExecutableFile(atPath: configured) ? URL(fileURLWithPath: configured) : nil
        }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if fm.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// The address space a program may use by default (`ulimit -v`): a
    /// hostile video cannot make ffmpeg take the machine's memory. A 4K HEVC
    /// clip transcoded to 1080p H.264 with two threads stays under 1 GiB.
    public static let defaultMemoryLimit = 4 << 30

    /// Runs `executable` with `arguments`, killing it after `timeLimit`
    /// seconds and refusing it more than `memoryLimit` bytes of address space
    /// (nil: no limit); `onOutput` sees standard output as it arrives
    /// (ffmpeg's progress).
    public static func run(_ executable: URL, _ arguments: [String], timeLimit: Double, memoryLimit: Int? = defaultMemoryLimit,
                           onOutput: (@Sendable (Data) -> Void)? = nil) throws(ExternalToolError) -> ToolOutput {
        let tool = executable.lastPathComponent
        let process = Process()
        if let memoryLimit {
            // Foundation cannot set a child's limits: the shell sets it and
            // then becomes the program (exec), so the process killed on a
            // time-out is the program itself.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -v \"$0\" && exec \"$@\"", String(max(1, memoryLimit >> 10)), executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let collector = OutputCollector()
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw .notStarted(tool: tool, reason: error.localizedDescription)
        }
        let pid = process.processIdentifier
        running.withLock { _ = $0.insert(pid) }
        defer { running.withLock { _ = $0.remove(pid) } }
        // One blocking reader thread per pipe, so a chatty program never
        // stalls on a full pipe (Foundation's readabilityHandler leaked under
        // LeakSanitizer). Threads of their own, not Dispatch's pool: with a
        // few programs running at once, readers blocked in read(2) filled the
        // pool and the termination callback waited ~0.8 s for a free thread.
        let readers = DispatchGroup()
        for (pipe, isError) in [(out, false), (err, true)] {
            let handle = pipe.fileHandleForReading
            readers.enter()
            let reader = Thread {
                defer { readers.leave() }
                while true {
                    let chunk = handle.readData(ofLength: 1 << 16)
                    if chunk.isEmpty { break }
                    if isError {
                        collector.appendError(chunk)
                    } else {
                        collector.appendOutput(chunk)
                        onOutput?(chunk)
                    }
                }
            }
            reader.stackSize = 256 << 10
            reader.start()
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeLimit) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        // The pipes end when the program is gone.
        readers.wait()
        let output = collector.result
        if timedOut { throw .timedOut(tool: tool, seconds: timeLimit) }
        switch process.terminationReason {
        case .uncaughtSignal:
            throw .crashed(tool: tool, signal: process.terminationStatus)
        case .exit where process.terminationStatus != 0:
            let lastLine = output.standardErrorTail.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            throw .failed(tool: tool, status: process.terminationStatus, message: String(lastLine.prefix(300)))
        default:
            return output
        }
    }
}

/// Collects a child's output from the pipes' handler threads.
private final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var output: [UInt8] = []
    private var error: [UInt8] = []

    func appendOutput(_ data: Data) {
        guard !data.isEmpty else { return }
        lock.withLock {
            let room = ToolRunner.maximumOutput - output.count
            if room > 0 { output.append(contentsOf: data.prefix(room)) }
        }
    }

    func appendError(_ data: Data) {
        guard !data.isEmpty else { return }
        lock.withLock {
            error.append(contentsOf: data)
            if error.count > ToolRunner.maximumErrorTail { error.removeFirst(error.count - ToolRunner.maximumErrorTail) }
        }
    }

    var result: ToolOutput {
        lock.withLock { ToolOutput(standardOutput: output, standardErrorTail: String(decoding: error, as: UTF8.self)) }
    }
}
