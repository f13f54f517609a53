import Foundation
import GalleryCore

/// A photo record for layout tests (no file behind it).
public func samplePhoto(_ path: String, _ exif: String?, offset: String? = nil, hash: String? = nil,
                 fileTime: Date = Date(timeIntervalSince1970: 1_700_000_000), size: PixelSize = PixelSize(width: 400, height: 300)) -> MediaItem {
    let components = path.split(separator: "/").map(String.init)
    let date = exif.flatMap { CaptureDate(exif: $0, offset: offset, source: .original) }
        ?? CaptureDate(fileTime: fileTime, timeZone: TimeZone(identifier: "UTC")!)
    let source = SourceFile(url: URL(fileURLWithPath: "/src/" + path), relativeComponents: components, byteCount: 1, modificationDate: fileTime)
    let metadata = PhotoMetadata(format: .jpeg, storedSize: size, orientation: .up, captureDate: date)
    let spec = RenditionSpec(role: .thumbnail, box: PixelSize(width: 280, height: 210), encoding: .webp(quality: 80))
    let preview = RenditionSpec(role: .preview, box: PixelSize(width: 800, height: 600), encoding: .webp(quality: 80))
    let h = hash ?? path
    return MediaItem(source: source, contentHash: sampleHash(h), metadata: metadata, renditions: [
        Rendition(spec: spec, size: size.fitting(in: spec.box), path: "media/aa/\(h.hashValue)-t.webp"),
        Rendition(spec: preview, size: size.fitting(in: preview.box), path: "media/bb/\(h.hashValue)-p.webp"),
    ])
}

/// A content hash for a test's label: the same label, the same hash.
public func sampleHash(_ label: String) -> ContentHash {
    var hasher = StableHash()
    hasher.update(label)
    return hasher.contentHash()
}

/// Test data kept beside the tests that own it.
public enum TestData {
    /// Inputs that once crashed gallerygen, replayed by MediaTests' RegressionTests.
    public static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MediaTests/Regressions")
}
