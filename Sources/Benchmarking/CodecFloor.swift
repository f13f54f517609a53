import Foundation
import GalleryCore
import Imaging
import Metadata
import Scanning

/// The codec floor for the benchmark: the CPU time libjpeg-turbo alone needs to
/// decode every JPEG of a library at the DCT scale the build would choose, plus
/// the time the encoder needs for the renditions. Resizing is done but not
/// counted, so the floor is what no build can beat with these codecs.
public enum CodecFloor {
    /// Seconds of decoding and encoding, and the number of photos measured.
    public struct Result: Sendable {
        /// CPU seconds spent in the JPEG decoder.
        public var decodeSeconds: Double
        /// CPU seconds spent in the encoder.
        public var encodeSeconds: Double
        /// JPEGs measured.
        public var photos: Int
    }

    /// Measures every JPEG under `source`, on this thread.
    public static func measure(source: URL, settings: BuildSettings) throws -> Result {
        var files: [SourceFile] = []
        SourceScanner(root: source).walk { event in
            if case .media(let file) = event, SourceFileTypes.isPhoto(file.fileName) { files.append(file) }
        }
        var result = Result(decodeSeconds: 0, encodeSeconds: 0, photos: 0)
        for file in files {
            guard let data = try? SourceFileReader.read(file) else { continue }
            try data.withUnsafeBytes { bytes in
                guard let metadata = try? MetadataReader.read(bytes, modificationDate: file.modificationDate),
                      metadata.format == .jpeg, metadata.kind == .still else { return }
                let specs = settings.renditionSpecs
                // The same sizes and DCT scale the build's RenditionMaker uses.
                let stored = specs.map { metadata.orientation.storedSize(ofDisplayed: metadata.displaySize.fitting(in: $0.box)) }
                let denominator = DCTScale.denominator(stored: metadata.storedSize, targets: stored)
                // Decode alone, the way the build decodes: the file's planes
                // (or RGBA for CMYK and stored-RGB JPEGs), rows discarded.
                var icc: [UInt8]?
                let start = cpuSeconds()
                guard let planar = try? JPEGCodec.streamPlanes(bytes, scaleDenominator: denominator, icc: &icc,
                                                              start: { _ in [] }, row: { _, _ in }) else { return }
                if planar {
                    result.decodeSeconds += cpuSeconds() - start
                    // Encoding alone: the renditions are made (not counted) and
                    // only the encoder calls are timed.
                    var encodeSeconds = 0.0
                    let made = try? PlanarRenditionMaker.make(bytes, scaleDenominator: denominator, sizes: stored,
                                                              ranges: specs.map { RenditionEncoder.sampleRange(for: $0.encoding) },
                                                              orientation: metadata.orientation) { (index, image, icc) throws(ImagingError) in
                        let encodeStart = cpuSeconds()
                        defer { encodeSeconds += cpuSeconds() - encodeStart }
                        return try RenditionEncoder.encode(image, as: specs[index].encoding, iccProfile: icc)
                    }
                    guard made != nil else { return }
                    result.encodeSeconds += encodeSeconds
                } else {
                    let rgbaStart = cpuSeconds()
                    guard let decoded = try? JPEGCodec.decode(bytes, scaleDenominator: denominator, maximumPixels: settings.maximumPixels) else { return }
                    result.decodeSeconds += cpuSeconds() - rgbaStart
                    for (spec, size) in zip(specs, stored) {
                        let resized = LanczosResampler.resize(decoded.image, width: size.width, height: size.height)
                        let encodeStart = cpuSeconds()
                        _ = try RenditionEncoder.encode(resized, as: spec.encoding, iccProfile: decoded.iccProfile)
                        result.encodeSeconds += cpuSeconds() - encodeStart
                    }
                }
                result.photos += 1
            }
        }
        return result
    }

    /// This thread's CPU time.
    static func cpuSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
