import CWebP
import GalleryCore

/// A WebP's canvas size, frame count and EXIF chunk, via libwebp's demuxer
/// (which validates the RIFF structure without decoding).
struct WebPStructure {
    var size: PixelSize
    var frameCount: Int
    var exif: [UInt8]?
    /// The XMP packet (`XMP ` chunk).
    var xmp: [UInt8]?

    init(_ bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .empty }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demux = WebPDemux(&data) else {
            throw .malformed("WebP container is malformed or cut short")
        }
        defer { WebPDemuxDelete(demux) }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        size = PixelSize(width: width, height: height)
        frameCount = max(1, Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)))
        var iterator = WebPChunkIterator()
        if WebPDemuxGetChunk(demux, "EXIF", 1, &iterator) != 0, let chunk = iterator.chunk.bytes {
            exif = Array(UnsafeBufferPointer(start: chunk, count: iterator.chunk.size))
        }
        WebPDemuxReleaseChunkIterator(&iterator)
        var xmpIterator = WebPChunkIterator()
        if WebPDemuxGetChunk(demux, "XMP ", 1, &xmpIterator) != 0, let chunk = xmpIterator.chunk.bytes,
           xmpIterator.chunk.size <= WordsReader.maximumXMPBytes {
            xmp = Array(UnsafeBufferPointer(start: chunk, count: xmpIterator.chunk.size))
        }
        WebPDemuxReleaseChunkIterator(&xmpIterator)
    }
}
