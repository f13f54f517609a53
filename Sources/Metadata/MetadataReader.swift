import Foundation
import GalleryCore

/// Reads a photo's metadata from its bytes without decoding any pixels.
public enum MetadataReader {
    /// Reads format, size, orientation, date, camera facts and GPS. The date falls
    /// back from `DateTimeOriginal` to `DateTimeDigitized`, `DateTime`, then the
    /// file's modification time.
    public static func read(_ bytes: UnsafeRawBufferPointer, modificationDate: Date) throws(MetadataError) -> PhotoMetadata {
        let format = try FormatSniffer.format(of: bytes)
        var size: PixelSize
        var frames = 1
        var facts: ExifFacts?
        switch format {
        case .jpeg:
            let structure = try JPEGStructure(bytes)
            size = structure.size
            facts = structure.exif.flatMap(ExifReader.read)
        case .png:
            let structure = try PNGStructure(bytes)
            size = structure.size
            frames = structure.frameCount
            facts = structure.exif.flatMap(ExifReader.read)
        case .gif:
            let structure = try GIFStructure(bytes)
            size = structure.size
            frames = structure.frameCount
        case .webp:
            let structure = try WebPStructure(bytes)
            size = structure.size
            frames = structure.frameCount
            facts = structure.exif.flatMap { exif in exif.withUnsafeBytes { ExifReader.read($0) } }
        }
        guard size.width <= 1 << 20, size.height <= 1 << 20 else { throw .invalidSize(width: size.width, height: size.height) }
        return PhotoMetadata(
            format: format,
            storedSize: size,
            orientation: facts?.orientation ?? .up,
            captureDate: facts?.captureDate ?? CaptureDate(fileTime: modificationDate),
            camera: facts?.camera ?? CameraFacts(),
            gps: facts?.gps,
            frameCount: frames
        )
    }
}
