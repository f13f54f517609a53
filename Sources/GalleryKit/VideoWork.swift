import SiteOutput
import Video
import Foundation
import GalleryCore
import Scanning

/// What a build needs to publish videos and motion: the tools (or why there
/// are none), a bound on concurrent ffmpeg encodes, and where progress goes.
/// Shared by every media job.
struct VideoWork: Sendable {
    /// ffmpeg and ffprobe, or why they cannot be used.
    let tools: Result<VideoTools, ExternalToolError>
    let settings: BuildSettings
    let output: OutputFolder
    let progress: ProgressReporter
    /// At most this many playback files are made at once: a transcode uses
    /// several threads of its own, and photos must go on meanwhile.
    private let encodeSlots: DispatchSemaphore
    /// x264 threads of one transcode.
    let threadsPerEncode: Int

    /// A Live Photo's motion is a few seconds long; a longer clip of the same
    /// name is a video of its own.
    static let longestLivePhotoClip = 15.0

    init(settings: BuildSettings, output: OutputFolder, progress: ProgressReporter, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.settings = settings
        self.output = output
        self.progress = progress
        tools = Result { () throws(ExternalToolError) in try VideoTools.locate(configured: settings.ffmpeg, environment: environment) }
        let slots = max(1, settings.jobs / 2)
        encodeSlots = DispatchSemaphore(value: slots)
        threadsPerEncode = max(1, ProcessInfo.processInfo.activeProcessorCount / slots)
    }

    /// The tools, or the reason a video is skipped.
    func requireTools() throws(ExternalToolError) -> VideoTools { try tools.get() }

    /// Probes the clip at `url`: its facts, or a named reason.
    func facts(of url: URL) throws -> VideoFacts {
        let tools = try requireTools()
        guard let facts = try tools.probe(url) else { throw VideoWorkError.notAVideo }
        guard facts.duration <= Double(settings.maxVideoSeconds) else {
            throw VideoWorkError.tooLong(seconds: facts.duration, limit: settings.maxVideoSeconds)
        }
        return facts
    }

    /// The poster frame as PNG bytes at `size` (the display size fitted into
    /// the largest preview box).
    func poster(of url: URL, facts: VideoFacts, size: PixelSize) throws -> [UInt8] {
        try requireTools().poster(of: url, facts: facts, size: size)
    }

    /// Makes the playback file `path` in OUT from the clip at `url`.
    func makePlayback(from url: URL, facts: VideoFacts, path: String, displayName: String) throws {
        let tools = try requireTools()
        encodeSlots.wait()
        defer { encodeSlots.signal() }
        let progress = self.progress, spec = settings.videoSpec, threads = threadsPerEncode
        let label = DisplayText.oneLine(displayName)
        progress.videoStarted(label)
        defer { progress.videoFinished(label) }
        try output.produce(path) { temporary in
            try tools.makePlayback(from: url, facts: facts, spec: spec, to: temporary, threads: threads) { fraction in
                progress.videoProgress(label, fraction: fraction)
            }
        }
    }

    /// Runs `body` with the byte range `range` of `bytes` (a Motion Photo's
    /// MP4) in a temporary file ffmpeg can read, removed afterwards.
    func withEmbeddedClip<T>(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, _ body: (URL) throws -> T) throws -> T {
        try ScratchFile.with(UnsafeRawBufferPointer(rebasing: bytes[range]), suffix: ".mp4", body)
    }

    /// Metadata of a video item from its facts: upright size, the clip's own
    /// date (else the file time), the recording device.
    static func metadata(of facts: VideoFacts, file: SourceFile) -> PhotoMetadata {
        var metadata = PhotoMetadata(format: .video, storedSize: facts.displaySize, orientation: .up,
                                     captureDate: facts.captureDate ?? CaptureDate(fileTime: file.modificationDate),
                                     camera: facts.camera, gps: facts.location)
        metadata.motion = facts
        metadata.motion?.location = nil
        return metadata
    }
}

/// Why a clip is not published, beyond the tools' own failures.
enum VideoWorkError: Error, CustomStringConvertible {
    /// ffprobe found no video stream.
    case notAVideo
    /// Longer than `max_video_seconds`.
    case tooLong(seconds: Double, limit: Int)

    var description: String {
        switch self {
        case .notAVideo: return "no video stream ffmpeg can read (damaged, or not a video)"
        case .tooLong(let seconds, let limit):
            return String(format: "is %.0f s long, over max_video_seconds (%d s)", seconds, limit)
        }
    }
}
