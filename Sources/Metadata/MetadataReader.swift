import Foundation
import GalleryCore

/// Reads a photo's metadata from its bytes without decoding any pixels.
public enum MetadataReader {
    /// Reads format, size, orientation, date, camera facts and GPS. The date falls
    /// back from `DateTimeOriginal` to `DateTimeDigitized`, `DateTime`, then the
    /// file's modification time. `fileName` only tells a TIFF-shaped RAW file
    /// (NEF, ARW, DNG, …) from a TIFF.
    public static func read(_ bytes: UnsafeRawBufferPointer, fileName: String? = nil,
                            modificationDate: Date) throws(MetadataError) -> PhotoMetadata {
        let format = try FormatSniffer.format(of: bytes, fileName: fileName)
        var size: PixelSize
        var frames = 1
        var facts: ExifFacts?
        var orientation: Orientation?
        // The file's own words: XMP first, then IPTC, then EXIF (below).
        var words = PhotoWords()
        var jpegXMP: UnsafeRawBufferPointer?
        switch format {
        case .jpeg:
            let structure = try JPEGStructure(bytes)
            size = structure.size
            facts = structure.exif.flatMap(ExifReader.read)
            jpegXMP = structure.xmp
            if let xmp = structure.xmp { words = WordsReader.xmp(xmp) }
            if let iptc = structure.photoshop.flatMap(WordsReader.iptcResource(inPhotoshop:)) { words = words.filled(from: WordsReader.iptc(iptc)) }
        case .png:
            let structure = try PNGStructure(bytes)
            size = structure.size
            frames = structure.frameCount
            facts = structure.exif.flatMap(ExifReader.read)
            if let xmp = structure.xmp { words = WordsReader.xmp(xmp) }
        case .gif:
            let structure = try GIFStructure(bytes)
            size = structure.size
            frames = structure.frameCount
        case .webp:
            let structure = try WebPStructure(bytes)
            size = structure.size
            frames = structure.frameCount
            facts = structure.exif.flatMap { exif in exif.withUnsafeBytes { ExifReader.read($0) } }
            if let xmp = structure.xmp { words = WordsReader.xmp(xmp) }
        case .heif, .jxl:
            let found: (size: PixelSize, exif: [UInt8]?, xmp: [UInt8]?)
            if format == .heif {
                let structure = try HEIFStructure(bytes)
                found = (structure.size, structure.exif, structure.xmp)
            } else {
                let structure = try JXLStructure(bytes)
                found = (structure.size, structure.exif, structure.xmp)
            }
            size = found.size
            facts = found.exif.flatMap { exif in exif.withUnsafeBytes { ExifReader.read($0) } }
            if let xmp = found.xmp { words = WordsReader.xmp(xmp) }
            // Upright already: libheif applies irot/imir/clap (the EXIF tag in
            // a HEIF only repeats them, see HEIFStructure), libjxl the
            // codestream's orientation.
            orientation = .up
        case .tiff:
            let directory = try TIFFDirectory(bytes)
            guard let stored = directory.size else { throw .malformed("TIFF has no image width and height") }
            size = stored
            facts = directory.compactExif().flatMap { exif in exif.withUnsafeBytes { ExifReader.read($0) } }
            orientation = directory.orientation ?? .up
            words = Self.tiffWords(directory)
        case .raw:
            let structure = try RawStructure(bytes, modificationDate: modificationDate)
            size = structure.size
            orientation = structure.orientation
            var rawFacts = structure.facts
            // TIFF-shaped RAWs carry real EXIF (with the UTC offset libraw drops).
            if let exif = (try? TIFFDirectory(bytes))?.compactExif(), let read = exif.withUnsafeBytes({ ExifReader.read($0) }) {
                let libraw = rawFacts
                rawFacts = read
                rawFacts.rawDate = libraw.rawDate
                rawFacts.gps = read.gps ?? libraw.gps
                if rawFacts.camera.lens == nil { rawFacts.camera.lens = libraw.camera.lens }
                if rawFacts.camera.make == nil { rawFacts.camera = libraw.camera }
            }
            facts = rawFacts
            if let directory = try? TIFFDirectory(bytes) { words = Self.tiffWords(directory) }
        case .video:
            // The sniffer never says video: videos are read by ffprobe.
            throw .malformed("a video is read by ffprobe, not as a photo")
        }
        guard size.width <= 1 << 20, size.height <= 1 << 20 else { throw .invalidSize(width: size.width, height: size.height) }
        var metadata = PhotoMetadata(
            format: format,
            storedSize: size,
            orientation: orientation ?? facts?.orientation ?? .up,
            captureDate: facts?.captureDate ?? CaptureDate(fileTime: modificationDate),
            camera: facts?.camera ?? CameraFacts(),
            gps: facts?.gps,
            frameCount: frames
        )
        metadata.livePhotoIdentifier = facts?.appleContentIdentifier
        metadata.burstIdentifier = facts?.appleBurstIdentifier
        metadata.words = words.filled(from: facts?.words ?? PhotoWords())
        metadata.embeddedClip = MotionPhoto.clipRange(in: bytes, format: format, xmp: jpegXMP)
        return metadata
    }

    /// The words in a TIFF-shaped file's IFD0: XMP, then IPTC.
    static func tiffWords(_ directory: TIFFDirectory) -> PhotoWords {
        var words = directory.xmp.map { WordsReader.xmp($0) } ?? PhotoWords()
        if let iptc = directory.iptc { words = words.filled(from: WordsReader.iptc(iptc)) }
        return words
    }
}
