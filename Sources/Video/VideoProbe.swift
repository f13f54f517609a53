import Foundation
import GalleryCore

/// Reads a video's facts with one `ffprobe` run (JSON).
public enum VideoProbe {
    /// Wall-clock limit of a probe: it reads headers only.
    public static let timeLimit = 30.0

    /// Probes `file` with the `ffprobe` at `ffprobe`; `modificationDate` is
    /// the file time, used for the local day when the clip's own time has no offset.
    public static func probe(_ file: URL, ffprobe: URL, modificationDate: Date) throws(ExternalToolError) -> VideoFacts? {
        let output = try ToolRunner.run(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file.path],
                                        timeLimit: timeLimit)
        return parse(output.standardOutput)
    }

    /// The facts in ffprobe's JSON, or nil when there is no video stream with a size.
    public static func parse(_ json: [UInt8]) -> VideoFacts? {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return nil }
        let streams = root["streams"] as? [[String: Any]] ?? []
        let format = root["format"] as? [String: Any] ?? [:]
        guard let video = streams.first(where: { $0["codec_type"] as? String == "video" && !isAttachedPicture($0) }),
              let width = video["width"] as? Int, let height = video["height"] as? Int, width > 0, height > 0 else { return nil }
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        let pixelFormat = text(video["pix_fmt"]) ?? "unknown"
        let duration = number(format["duration"]) ?? number(video["duration"]) ?? 0
        let tags = (format["tags"] as? [String: Any] ?? [:]).merging(video["tags"] as? [String: Any] ?? [:]) { first, _ in first }
        var facts = VideoFacts(
            duration: duration.isFinite && duration > 0 ? duration : 0,
            storedSize: PixelSize(width: width, height: height),
            rotation: rotation(video),
            videoCodec: text(video["codec_name"]) ?? "unknown",
            pixelFormat: pixelFormat,
            bitDepth: bitDepth(video, pixelFormat: pixelFormat),
            colorTransfer: text(video["color_transfer"]),
            profile: text(video["profile"]),
            audioCodec: audio.flatMap { text($0["codec_name"]) },
            captureDate: captureDate(tags)
        )
        facts.contentIdentifier = text(tags["com.apple.quicktime.content.identifier"])
        facts.camera = CameraFacts(make: text(tags["com.apple.quicktime.make"]) ?? text(tags["com.android.manufacturer"]),
                                   model: text(tags["com.apple.quicktime.model"]) ?? text(tags["com.android.model"]))
        facts.location = (text(tags["com.apple.quicktime.location.ISO6709"]) ?? text(tags["location"])).flatMap(location(iso6709:))
        return facts
    }

    /// An ISO 6709 point as phones write it: `+35.0394+135.7292/`, maybe
    /// with an altitude (`+35.0394+135.7292+012.345/`); decimal degrees only.
    static func location(iso6709 text: String) -> GPSCoordinate? {
        var numbers: [Double] = [], current = ""
        for character in text {
            if character == "+" || character == "-" || character == "/" {
                if let value = Double(current) { numbers.append(value) }
                current = character == "/" ? "" : String(character)
                if character == "/" { break }
            } else {
                current.append(character)
            }
        }
        if let value = Double(current) { numbers.append(value) }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180,
              numbers[0] != 0 || numbers[1] != 0 else { return nil }
        return GPSCoordinate(latitude: numbers[0], longitude: numbers[1])
    }

    /// Cover art in an MP4/MKV is a "video" stream too; it is not the clip.
    static func isAttachedPicture(_ stream: [String: Any]) -> Bool {
        (stream["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1
    }

    /// Clockwise display rotation: the display matrix's angle (ffmpeg reports
    /// it anticlockwise: -90 is a clip shown turned a quarter clockwise), else
    /// the old `rotate` tag (clockwise).
    static func rotation(_ video: [String: Any]) -> Int {
        // An angle as a whole turn's degrees, folded first: the tag is the
        // file's text, and Int("1e300" or "inf" read) would stop the build.
        func wholeDegrees(_ angle: Double) -> Int { angle.isFinite ? Int(angle.truncatingRemainder(dividingBy: 360).rounded()) : 0 }
        var degrees = 0
        if let sideData = video["side_data_list"] as? [[String: Any]],
           let matrix = sideData.first(where: { $0["rotation"] != nil }), let angle = number(matrix["rotation"]) {
            degrees = -wholeDegrees(angle)
        } else if let tags = video["tags"] as? [String: Any], let angle = number(tags["rotate"]) {
            degrees = wholeDegrees(angle)
        }
        let normalised = ((degrees % 360) + 360) % 360
        return (normalised + 45) / 90 * 90 % 360
    }

    static func bitDepth(_ video: [String: Any], pixelFormat: String) -> Int {
        if let raw = number(video["bits_per_raw_sample"]), raw >= 8, raw <= 16 { return Int(raw) }
        for depth in [16, 14, 12, 10, 9] where pixelFormat.contains("p\(depth)") { return depth }
        return 8
    }

    /// QuickTime's `com.apple.quicktime.creationdate` (local time with its
    /// offset, what iPhones write) first; the container's `creation_time` is
    /// UTC and says nothing of the local day, so it is placed like a file
    /// time (the building machine's zone), as photos without an offset are.
    static func captureDate(_ tags: [String: Any]) -> CaptureDate? {
        if let text = text(tags["com.apple.quicktime.creationdate"]), let date = CaptureDate(iso8601: text, source: .original) {
            return date
        }
        if let text = text(tags["creation_time"]), let utc = CaptureDate(iso8601: text, source: .original), utc.utcOffsetSeconds == 0 {
            var date = CaptureDate(fileTime: utc.instant)
            date.source = .original
            return date
        }
        return nil
    }

    static func text(_ value: Any?) -> String? {
        guard let string = value as? String, !string.isEmpty else { return nil }
        return UntrustedText.clean(Array(string.utf8))
    }

    static func number(_ value: Any?) -> Double? {
        if let n = value as? Double { return n }
        if let n = value as? Int { return Double(n) }
        if let s = value as? String { return Double(s) }
        return nil
    }
}
