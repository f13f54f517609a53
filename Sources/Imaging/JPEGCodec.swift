import CJPEG
import GalleryCore

/// libjpeg-turbo decode and encode through the small C error-trapping layer.
public enum JPEGCodec {
    private static func message(_ result: gg_jpeg_result) -> String {
        withUnsafeBytes(of: result.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The funnel every libjpeg status goes through.
    private static func check(_ result: gg_jpeg_result, decoding: Bool) throws(ImagingError) {
        if result.status != 0 {
            throw decoding ? .undecodable(message(result)) : .encodeFailed(message(result))
        }
        if decoding, result.warning == GG_JPEG_WARN_DAMAGED {
            throw .damaged(message(result))
        }
    }

    /// Decodes at 1/`scaleDenominator` into a new RGBA image. Damaged data (a
    /// truncated file, a corrupt scan) is an error: publishing grey stripes would
    /// be worse than naming the file.
    public static func decode(_ bytes: UnsafeRawBufferPointer, scaleDenominator: Int, maximumPixels: Int) throws(ImagingError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .undecodable("empty file") }
        var w: Int32 = 0, h: Int32 = 0, sw: Int32 = 0, sh: Int32 = 0
        try check(gg_jpeg_read_size(base, bytes.count, Int32(scaleDenominator), &w, &h, &sw, &sh), decoding: true)
        guard sw > 0, sh > 0 else { throw .undecodable("JPEG header declares no pixels") }
        guard Int(w) * Int(h) <= maximumPixels else { throw .tooLarge(pixels: Int(w) * Int(h), limit: maximumPixels) }
        var icc: UnsafeMutablePointer<UInt8>?
        var iccLength: UInt32 = 0
        var result = gg_jpeg_result()
        let image = RGBAImage(width: Int(sw), height: Int(sh), hasAlpha: false) { buffer in
            result = gg_jpeg_decode_rgba(base, bytes.count, Int32(scaleDenominator), buffer.baseAddress, Int(sw) * 4, sw, sh, &icc, &iccLength)
            if result.status != 0 { buffer.update(repeating: 0) }  // never expose uninitialised memory
        }
        defer { if let icc { gg_jpeg_free(icc) } }
        try check(result, decoding: true)
        let profile = icc.map { Array(UnsafeBufferPointer(start: $0, count: Int(iccLength))) }
        return DecodedImage(image: image, iccProfile: profile)
    }

    /// Encodes as JPEG (alpha is dropped), embedding `iccProfile` when given.
    public static func encode(_ image: RGBAImage, quality: Int, progressive: Bool = false, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let result: gg_jpeg_result = image.pixels.withUnsafeBufferPointer { pixels in
            if let icc = iccProfile, !icc.isEmpty {
                return icc.withUnsafeBufferPointer { profile in
                    gg_jpeg_encode_rgba(pixels.baseAddress, Int32(image.width), Int32(image.height), image.width * 4,
                                        Int32(quality), progressive ? 1 : 0, profile.baseAddress, UInt32(profile.count), &output, &length)
                }
            }
            return gg_jpeg_encode_rgba(pixels.baseAddress, Int32(image.width), Int32(image.height), image.width * 4,
                                       Int32(quality), progressive ? 1 : 0, nil, 0, &output, &length)
        }
        defer { if let output { gg_jpeg_free(output) } }
        try check(result, decoding: false)
        guard let output else { throw .encodeFailed("no output") }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
