import Foundation

/// Tells the user the build is alive. On a terminal: one live line with photos
/// done / found, rate and ETA. Otherwise (CI logs, pipes): a plain line every
/// ten seconds or so.
final class ProgressReporter: @unchecked Sendable {
    private let lock = NSLock()
    private let interactive: Bool
    private let quiet: Bool
    private let start = Date()
    private var found = 0
    private var done = 0
    private var scanFinished = false
    private var lastDraw = Date.distantPast
    private var lastPlain = Date()
    private var lineVisible = false
    /// Playback files being made: clip name and fraction done, oldest first.
    private var videos: [(name: String, fraction: Double)] = []

    init(quiet: Bool) {
        self.quiet = quiet
        self.interactive = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func photoFound() {
        lock.withLock {
            found += 1
            drawIfDue()
        }
    }

    /// Photos the walk has found so far.
    var photosFound: Int { lock.withLock { found } }

    func scanDone() {
        lock.withLock {
            scanFinished = true
            if !interactive && !quiet { emit(found == 1 ? "Found 1 photo or video" : "Found \(found) photos and videos") }
            drawIfDue(force: true)
        }
    }

    func photoDone() {
        lock.withLock {
            done += 1
            drawIfDue()
        }
    }

    /// A playback file is being made of `name` (transcodes take minutes: the
    /// live line names the clip and its percentage).
    func videoStarted(_ name: String) {
        lock.withLock {
            videos.append((name, 0))
            drawIfDue(force: true)
        }
    }

    func videoProgress(_ name: String, fraction: Double) {
        lock.withLock {
            if let index = videos.firstIndex(where: { $0.name == name }) { videos[index].fraction = fraction }
            drawIfDue()
        }
    }

    func videoFinished(_ name: String) {
        lock.withLock {
            if let index = videos.firstIndex(where: { $0.name == name }) { videos.remove(at: index) }
            drawIfDue()
        }
    }

    /// Prints a message (e.g. a skipped file) without garbling the live line.
    func message(_ text: String) {
        lock.withLock {
            clearLine()
            FileHandle.standardError.write(Data((text + "\n").utf8))
            drawIfDue(force: true)
        }
    }

    func finish() {
        lock.withLock { clearLine() }
    }

    private func emit(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private func clearLine() {
        if lineVisible {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            lineVisible = false
        }
    }

    /// The live line: items done / found, rate, ETA, and the video being encoded.
    func status() -> String {
        let elapsed = Date().timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var text = "\(done)/\(found)\(scanFinished ? "" : "+") items"
        if done > 0 { text += String(format: " · %.1f/s", rate) }
        if scanFinished, rate > 0, done < found {
            let remaining = Int(Double(found - done) / rate)
            text += String(format: " · ETA %d:%02d", remaining / 60, remaining % 60)
        }
        if let video = videos.first {
            text += " · video \(video.name) \(Int(video.fraction * 100))%"
            if videos.count > 1 { text += " (+\(videos.count - 1))" }
        }
        return text
    }

    private func drawIfDue(force: Bool = false) {
        guard !quiet else { return }
        let now = Date()
        if interactive {
            guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            FileHandle.standardError.write(Data("\r\u{1B}[K\(status())".utf8))
            lineVisible = true
        } else if now.timeIntervalSince(lastPlain) >= 10 {
            lastPlain = now
            emit(status())
        }
    }
}
