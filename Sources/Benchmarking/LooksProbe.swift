import Foundation
import GalleryCore
import Imaging
import Metadata

/// The looks (`PictureLooks`) of single files, made as a build makes them:
/// every still rendition of the settings planned, the smallest thumbnail's
/// pixels looked at. `scripts/stack_threshold.py` measures the hash's
/// distances on labelled pairs with it.
public enum LooksProbe {
    /// The looks of the photo at `url`, or nil when it is no still gallerygen reads.
    public static func looks(of url: URL, settings: BuildSettings) -> PictureLooks? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return data.withUnsafeBytes { bytes -> PictureLooks? in
            guard let metadata = try? MetadataReader.read(bytes, modificationDate: Date()), metadata.kind == .still else { return nil }
            let specs = settings.renditionSpecs.filter { $0.role == .thumbnail || $0.role == .preview }
            let jobs = specs.map { RenditionJob(spec: $0, size: metadata.displaySize.fitting(in: $0.box), isWanted: false) }
            guard let looksJob = jobs.indices.filter({ jobs[$0].spec.role == .thumbnail }).min(by: { jobs[$0].size.area < jobs[$1].size.area })
            else { return nil }
            var looks: PictureLooks?
            _ = try? RenditionMaker.make(bytes, format: metadata.format, storedSize: metadata.storedSize, orientation: metadata.orientation,
                                         jobs: jobs, maximumPixels: settings.maximumPixels,
                                         taps: [PictureTap(job: looksJob) { looks = PictureLooks($0) }])
            return looks
        }
    }
}
