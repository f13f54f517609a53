import Foundation
import GalleryCore
import Imaging
import Metadata

/// What became of one source file.
enum PhotoOutcome: Sendable {
    /// Published, with the number of renditions encoded now and reused.
    case published(Photo, made: Int, reused: Int)
    /// Left out, with the reason.
    case skipped(SourceFile, reason: String)
}

/// Turns one source file into a published photo: one read of the file, a
/// content hash, metadata from the headers, and, only for renditions not
/// already in OUT, one decode feeding every missing size.
struct PhotoProcessor: Sendable {
    let settings: BuildSettings
    let specs: [RenditionSpec]

    init(settings: BuildSettings) {
        self.settings = settings
        self.specs = settings.renditionSpecs
    }

    func process(_ file: SourceFile) -> PhotoOutcome {
        let data: Data
        do {
            data = try Data(contentsOf: file.url, options: .uncached)
        } catch {
            return .skipped(file, reason: "cannot be read (\(ErrorText.describe(error)))")
        }
        return data.withUnsafeBytes { bytes in
            do {
                return try process(file, bytes: bytes)
            } catch let error as MetadataError {
                return .skipped(file, reason: error.description)
            } catch let error as ImagingError {
                return .skipped(file, reason: error.description)
            } catch {
                return .skipped(file, reason: String(describing: error))
            }
        }
    }

    private func process(_ file: SourceFile, bytes: UnsafeRawBufferPointer) throws -> PhotoOutcome {
        let contentHash = StableHash.of(bytes)
        let metadata = try MetadataReader.read(bytes, modificationDate: file.modificationDate)
        guard metadata.storedSize.area <= settings.maximumPixels else {
            throw ImagingError.tooLarge(pixels: metadata.storedSize.area, limit: settings.maximumPixels)
        }
        let upright = metadata.displaySize
        // Boxes that give the same pixels (a small source fits several boxes
        // whole) share one file.
        var renditions: [Rendition] = []
        var jobs: [RenditionJob] = []
        var jobPaths: [String] = []
        var pathsBySize: [String: String] = [:]
        var reused = 0
        for spec in specs {
            let size = upright.fitting(in: spec.box)
            let sizeKey = "\(spec.format.rawValue)-\(spec.quality)-\(size)"
            if let existing = pathsBySize[sizeKey] {
                renditions.append(Rendition(spec: spec, size: size, path: existing))
                continue
            }
            let path = spec.relativePath(contentHash: contentHash, size: size)
            pathsBySize[sizeKey] = path
            renditions.append(Rendition(spec: spec, size: size, path: path))
            if FileManager.default.fileExists(atPath: settings.output.appendingPathComponent(path).path) {
                reused += 1
            } else {
                jobs.append(RenditionJob(spec: spec, size: size))
                jobPaths.append(path)
            }
        }
        if !jobs.isEmpty {
            let encoded = try RenditionMaker.make(bytes, format: metadata.format, storedSize: metadata.storedSize,
                                                  orientation: metadata.orientation, jobs: jobs,
                                                  maximumPixels: settings.maximumPixels)
            for (path, output) in zip(jobPaths, encoded) {
                try output.withUnsafeBytes { raw in
                    try AtomicFile.write(raw, to: settings.output.appendingPathComponent(path))
                }
            }
        }
        let photo = Photo(source: file, contentHash: contentHash, metadata: metadata, renditions: renditions)
        return .published(photo, made: jobs.count, reused: reused)
    }
}
