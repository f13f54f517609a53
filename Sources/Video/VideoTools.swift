import Foundation
import GalleryCore

/// How a playback file was made.
public enum PlaybackMethod: String, Sendable {
    /// The video stream copied as it is (audio copied or converted to AAC).
    case remuxed
    /// Re-encoded with libx264.
    case transcoded
}

/// ffmpeg and ffprobe, found once per build, and everything gallerygen asks
/// of them: the facts of a clip, a poster frame, a browser-safe playback
/// file. Each run is a child process with a wall-clock limit scaled to the
/// clip's length, so a hostile or endless file costs a bounded time and never
/// touches gallerygen's memory.
public struct VideoTools: Sendable {
    /// The ffmpeg program.
    public let ffmpeg: URL
    /// The ffprobe program.
    public let ffprobe: URL

    /// What to tell a user whose machine has no ffmpeg.
    public static let installHint = "install it with `sudo apt install ffmpeg`, or set `ffmpeg:` in gallery.yml to its path"

    /// Finds the tools: `configured` (gallery.yml's `ffmpeg:`, with ffprobe
    /// beside it), else both on PATH.
    public static func locate(configured: String?,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(ExternalToolError) -> VideoTools {
        let configured = configured.flatMap { $0.isEmpty ? nil : $0 }
        guard let ffmpeg = ToolRunner.locate("ffmpeg", configured: configured, environment: environment) else {
            throw .missing(tool: "ffmpeg", hint: installHint)
        }
        let besideIt = configured.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("ffprobe").path }
        guard let ffprobe = ToolRunner.locate("ffprobe", configured: besideIt, environment: environment)
            ?? ToolRunner.locate("ffprobe", environment: environment) else {
            throw .missing(tool: "ffprobe", hint: installHint)
        }
        return VideoTools(ffmpeg: ffmpeg, ffprobe: ffprobe)
    }

    /// Creates tools from known paths.
    public init(ffmpeg: URL, ffprobe: URL) {
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
    }

    /// ffmpeg reads `file:` URLs literally: a name with `:` or `|` is never a protocol.
    static func fileArgument(_ url: URL) -> String { "file:" + url.path }

    /// Runs a tool on `file`; its message loses the path it starts with (the
    /// caller names the file the user knows).
    static func run(_ tool: URL, _ arguments: [String], on file: URL, timeLimit: Double,
                    onOutput: (@Sendable (Data) -> Void)? = nil) throws(ExternalToolError) -> ToolOutput {
        do {
            return try ToolRunner.run(tool, arguments, timeLimit: timeLimit, onOutput: onOutput)
        } catch .failed(let name, let status, let message) {
            let cleaned = message.replacingOccurrences(of: fileArgument(file) + ": ", with: "")
                .replacingOccurrences(of: fileArgument(file), with: file.lastPathComponent)
            throw .failed(tool: name, status: status, message: cleaned)
        }
    }

    // MARK: Probe

    /// The clip's facts, or nil when it has no video stream.
    public func probe(_ file: URL) throws(ExternalToolError) -> VideoFacts? {
        let output = try Self.run(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams",
                                            Self.fileArgument(file)], on: file, timeLimit: VideoProbe.timeLimit)
        return VideoProbe.parse(output.standardOutput)
    }

    // MARK: Poster

    /// Where the poster frame is taken: 1 s in, or the middle of a shorter clip.
    public static func posterTime(_ facts: VideoFacts) -> Double {
        facts.duration >= 2 ? 1 : facts.duration / 2
    }

    /// The filters that make SDR pictures at `size` in `pixelFormat`
    /// (upright: ffmpeg turns the frames by the display matrix before these
    /// run). HDR (PQ, HLG, an iPhone's Dolby Vision, which is HLG underneath)
    /// is tone-mapped to BT.709 rather than shown washed out, after scaling
    /// down (a 4K clip is tone-mapped at 1080p: half the time, the same
    /// look), and zscale itself converts to the output format so the BT.709
    /// matrix is the one used; deeper than 8 bits is rounded to 8.
    public static func pictureFilters(_ facts: VideoFacts, size: PixelSize, scaler: String, pixelFormat: String) -> String {
        var filters = ["scale=\(size.width):\(size.height):flags=\(scaler)", "setsar=1"]
        if facts.isHDR, let transfer = facts.colorTransfer {
            filters += ["zscale=tin=\(transfer):pin=bt2020:min=bt2020nc:t=linear:npl=100", "format=gbrpf32le", "zscale=p=bt709",
                        "tonemap=hable:desat=0", "zscale=t=bt709:m=bt709:r=tv"]
        }
        filters.append("format=\(pixelFormat)")
        return filters.joined(separator: ",")
    }

    /// A PNG (stored, not compressed: it is decoded at once) of the frame at
    /// `posterTime`, upright, at `size`.
    public func poster(of file: URL, facts: VideoFacts, size: PixelSize) throws(ExternalToolError) -> [UInt8] {
        func grab(at seconds: Double) throws(ExternalToolError) -> [UInt8] {
            // -ss before -i seeks by the index: fast even deep into a long clip.
            let arguments = ["-nostdin", "-hide_banner", "-v", "error", "-ss", String(format: "%.3f", seconds), "-i", Self.fileArgument(file),
                             "-map", "0:v:0", "-frames:v", "1", "-an", "-sn", "-dn",
                             "-vf", Self.pictureFilters(facts, size: size, scaler: "lanczos", pixelFormat: "rgb24"),
                             "-f", "image2pipe", "-c:v", "png", "-compression_level", "0", "pipe:1"]
            return try Self.run(ffmpeg, arguments, on: file, timeLimit: 60 + facts.duration).standardOutput
        }
        var png = try grab(at: Self.posterTime(facts))
        // A seek past the last key frame of an odd file yields nothing: the first frame then.
        if png.isEmpty { png = try grab(at: 0) }
        guard !png.isEmpty else { throw .failed(tool: "ffmpeg", status: 0, message: "no frame could be decoded") }
        return png
    }

    // MARK: Playback file

    /// The ffmpeg arguments that turn `input` into the playback file at
    /// `output` for `spec` (box, CRF, preset), and whether that is a remux.
    public static func playbackArguments(input: URL, facts: VideoFacts, spec: RenditionSpec, output: URL,
                                         threads: Int) -> (arguments: [String], method: PlaybackMethod) {
        var arguments = ["-nostdin", "-hide_banner", "-v", "error", "-y", "-progress", "pipe:1", "-nostats",
                         "-i", fileArgument(input),
                         // The first video and (if any) audio stream; no subtitles, data
                         // tracks (GPS in a dashcam clip), chapters or metadata at all.
                         "-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn", "-map_metadata", "-1", "-map_chapters", "-1",
                         "-metadata", "creation_time=", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact"]
        let method: PlaybackMethod = facts.videoStreamPlaysAsIs(in: spec.box) ? .remuxed : .transcoded
        switch method {
        case .remuxed:
            // Copied, display matrix included: a portrait clip plays portrait.
            arguments += ["-c:v", "copy", "-tag:v", "avc1"]
        case .transcoded:
            let size = facts.displaySize.fittingVideo(in: spec.box)
            // The video spec is always H.264 (`BuildSettings.videoSpec`); x264's defaults otherwise.
            var crf = 23, preset = "medium"
            if case .h264(let specCRF, let specPreset) = spec.encoding { (crf, preset) = (specCRF, specPreset) }
            arguments += ["-vf", pictureFilters(facts, size: size, scaler: "bicubic", pixelFormat: "yuv420p"),
                          "-c:v", "libx264", "-profile:v", "high", "-preset", preset, "-crf", String(crf),
                          "-threads", String(max(1, threads)),
                          "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]
        }
        if facts.audioCodec != nil {
            arguments += facts.audioPlaysAsIs ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "160k", "-ac", "2"]
        }
        arguments += ["-movflags", "+faststart", "-f", "mp4", fileArgument(output)]
        return (arguments, method)
    }

    /// Seconds a playback file may take before it is given up: remuxing runs
    /// at disk speed; a transcode of a 4K HDR clip on two cores runs at a
    /// fraction of real time.
    public static func playbackTimeLimit(_ facts: VideoFacts, method: PlaybackMethod) -> Double {
        method == .remuxed ? 60 + facts.duration : 120 + facts.duration * 40
    }

    /// Makes the playback file at `output` (a temporary name the caller moves
    /// into place); `progress` gets the fraction done as ffmpeg reports it.
    @discardableResult
    public func makePlayback(from input: URL, facts: VideoFacts, spec: RenditionSpec, to output: URL, threads: Int,
                             progress: (@Sendable (Double) -> Void)? = nil) throws(ExternalToolError) -> PlaybackMethod {
        let (arguments, method) = Self.playbackArguments(input: input, facts: facts, spec: spec, output: output, threads: threads)
        let duration = facts.duration
        let reader = ProgressLines()
        _ = try Self.run(ffmpeg, arguments, on: input, timeLimit: Self.playbackTimeLimit(facts, method: method), onOutput: { chunk in
            guard let progress, duration > 0 else { return }
            for microseconds in reader.outTimes(chunk) { progress(min(1, Double(microseconds) / 1e6 / duration)) }
        })
        return method
    }
}

/// Splits ffmpeg's `-progress` output (key=value lines, arriving in chunks)
/// and picks out `out_time_us`.
final class ProgressLines: @unchecked Sendable {
    private var pending = ""
    private let lock = NSLock()

    func outTimes(_ chunk: Data) -> [Int64] {
        lock.withLock {
            pending += String(decoding: chunk, as: UTF8.self)
            var times: [Int64] = []
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline]
                pending = String(pending[pending.index(after: newline)...])
                if line.hasPrefix("out_time_us="), let value = Int64(line.dropFirst("out_time_us=".count)), value >= 0 { times.append(value) }
            }
            if pending.count > 4096 { pending = "" }
            return times
        }
    }
}
