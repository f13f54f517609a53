import Foundation
import GalleryCore
import Imaging
import Metadata

/// Renditions of single photos in several encodings, made as a build makes
/// them (one decode, every size of the settings, the planar path where the
/// build takes it), with the CPU each encoding adds and the picture before
/// encoding to compare against. `scripts/bench_formats.py --renditions`
/// plots bytes against SSIMULACRA2 with it.
public enum EncodeProbe {
    /// One encoding of one photo: its files' bytes and the CPU it added.
    public struct Trial: Sendable {
        public var encoding: Encoding
        /// Bytes of each rendition, by box, in the settings' order.
        public var bytes: [(box: PixelSize, size: PixelSize, bytes: Int)]
        /// CPU seconds of making every rendition in this encoding, less a
        /// decode and resampling alone: what the encoder costs.
        public var encodeSeconds: Double
    }

    /// Makes `photo`'s renditions in each of `encodings`, writing them and the
    /// unencoded pictures (PPM, `NAME-WxH.ppm`) into `folder`; nil when the
    /// file is no still gallerygen reads. Each is timed `repeats` times, the
    /// fastest kept.
    public static func run(_ photo: URL, encodings: [Encoding], settings: BuildSettings, folder: URL, repeats: Int) throws -> [Trial]? {
        guard let data = FileManager.default.contents(atPath: photo.path) else { return nil }
        let stem = photo.deletingPathExtension().lastPathComponent
        return try data.withUnsafeBytes { bytes -> [Trial]? in
            guard let metadata = try? MetadataReader.read(bytes, modificationDate: Date()), metadata.kind == .still else { return nil }
            let boxes = settings.thumbnailBoxes + settings.previewBoxes
            func jobs(_ encoding: Encoding, wanted: Bool) -> [RenditionJob] {
                boxes.map { box in
                    RenditionJob(spec: RenditionSpec(role: .preview, box: box, encoding: encoding),
                                 size: metadata.displaySize.fitting(in: box), isWanted: wanted)
                }
            }
            func make(_ jobs: [RenditionJob], taps: [PictureTap] = []) throws -> (files: [[UInt8]], seconds: Double) {
                var best = Double.infinity
                var files: [[UInt8]] = []
                for _ in 0..<max(repeats, 1) {
                    let start = CodecFloor.cpuSeconds()
                    files = try RenditionMaker.make(bytes, format: metadata.format, storedSize: metadata.storedSize,
                                                    orientation: metadata.orientation, jobs: jobs, maximumPixels: settings.maximumPixels,
                                                    taps: taps)
                    best = min(best, CodecFloor.cpuSeconds() - start)
                }
                return (files, best)
            }
            // The floor: decoded and resampled, nothing encoded; the pictures kept as the reference.
            let reference = jobs(settings.stillEncoding, wanted: false)
            var pictures: [Int: RGBPicture] = [:]
            let floor = try make(reference, taps: reference.indices.map { index in PictureTap(job: index) { pictures[index] = $0 } })
            for (index, job) in reference.enumerated() {
                guard let picture = pictures[index] else { continue }
                var ppm = Array("P6\n\(picture.width) \(picture.height)\n255\n".utf8)
                ppm += picture.bytes
                try Data(ppm).write(to: folder.appendingPathComponent("\(stem)-\(job.size).ppm"))
            }
            var trials: [Trial] = []
            for encoding in encodings {
                let made = try make(jobs(encoding, wanted: true))
                var trial = Trial(encoding: encoding, bytes: [], encodeSeconds: max(made.seconds - floor.seconds, 0))
                for (job, file) in zip(jobs(encoding, wanted: true), made.files) {
                    trial.bytes.append((job.spec.box, job.size, file.count))
                    let name = "\(stem)-\(job.size)-\(label(encoding).replacingOccurrences(of: ":", with: "-")).\(encoding.format.fileExtension)"
                    try Data(file).write(to: folder.appendingPathComponent(name))
                }
                trials.append(trial)
            }
            return trials
        }
    }

    /// `webp:85`, `jpeg:85`, `avif:60:6`: how the probe's command line names an encoding.
    public static func label(_ encoding: Encoding) -> String {
        switch encoding {
        case .webp(let quality): return "webp:\(quality)"
        case .jpeg(let quality): return "jpeg:\(quality)"
        case .avif(let quality, let speed): return "avif:\(quality):\(speed)"
        case .h264(let crf, let preset): return "h264:\(crf):\(preset)"
        }
    }

    /// The encoding a label names, or nil.
    public static func encoding(_ label: String) -> Encoding? {
        let parts = label.split(separator: ":").map(String.init)
        guard let format = parts.first, parts.count >= 2, let quality = Int(parts[1]), (1...100).contains(quality) else { return nil }
        switch (format, parts.count) {
        case ("webp", 2): return .webp(quality: quality)
        case ("jpeg", 2): return .jpeg(quality: quality)
        case ("avif", 3): return Int(parts[2]).flatMap { (0...10).contains($0) ? .avif(quality: quality, speed: $0) : nil }
        default: return nil
        }
    }
}
