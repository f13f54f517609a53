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

    /// The stored size from the header alone.
    public static func size(of bytes: UnsafeRawBufferPointer) throws(ImagingError) -> PixelSize {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .undecodable("empty file") }
        var w: Int32 = 0, h: Int32 = 0, sw: Int32 = 0, sh: Int32 = 0
        try check(gg_jpeg_read_size(base, bytes.count, 1, &w, &h, &sw, &sh), decoding: true)
        guard w > 0, h > 0 else { throw .undecodable("JPEG header declares no pixels") }
        return PixelSize(width: Int(w), height: Int(h))
    }

    /// How a JPEG's planes come out of `streamPlanes`.
    public struct PlaneLayout: Sendable {
        /// The image size at the chosen scale.
        public var size: PixelSize
        /// Each plane's size: one (Y, greyscale) or three (Y, Cb, Cr; chroma
        /// at the resolution the file stores it).
        public var planes: [PixelSize]
    }

    /// Decodes at 1/`scaleDenominator` without chroma upsampling or colour
    /// conversion, handing each plane's rows to `row` in order (plane index,
    /// samples) after telling `start` the layout. `start` answers how many of
    /// each plane's latest rows must stay readable where they were handed
    /// out (the one being handed out included): the decoder cycles through
    /// that many rows of strips, so the resamplers read its rows in place
    /// rather than copying each (18 MB a 12 MP photo). Returns false, having
    /// called neither, when the JPEG is not YCbCr or greyscale (CMYK, stored
    /// RGB): those go through `decode`. `icc` receives the embedded profile.
    public static func streamPlanes(_ bytes: UnsafeRawBufferPointer, scaleDenominator: Int, icc: inout [UInt8]?,
                                    start: (PlaneLayout) -> [Int],
                                    row: (Int, UnsafePointer<UInt8>) -> Void) throws(ImagingError) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .undecodable("empty file") }
        var decoder: OpaquePointer?
        var info = gg_jpeg_planar_info()
        var profile: UnsafeMutablePointer<UInt8>?
        var profileLength: UInt32 = 0
        let opened = gg_jpeg_planar_open(base, bytes.count, Int32(scaleDenominator), &decoder, &info, &profile, &profileLength)
        defer {
            if let profile { gg_jpeg_free(profile) }
            gg_jpeg_planar_close(decoder)
        }
        try check(opened, decoding: true)
        guard decoder != nil else { return false }
        icc = profile.map { Array(UnsafeBufferPointer(start: $0, count: Int(profileLength))) }
        let widths = [info.plane_width.0, info.plane_width.1, info.plane_width.2]
        let heights = [info.plane_height.0, info.plane_height.1, info.plane_height.2]
        let count = Int(info.components)
        let layout = PlaneLayout(size: PixelSize(width: Int(info.output_width), height: Int(info.output_height)),
                                 planes: (0..<count).map { PixelSize(width: Int(widths[$0]), height: Int(heights[$0])) })
        guard layout.planes.allSatisfy({ $0.width > 0 && $0.height > 0 }) else { throw .undecodable("JPEG header declares no pixels") }
        let kept = start(layout)
        try check(gg_jpeg_planar_keep(decoder, (0..<3).map { Int32(clamping: $0 < kept.count ? kept[$0] : 1) }), decoding: true)
        var planes = [UnsafePointer<UInt8>?](repeating: nil, count: 3)
        var strides = [Int](repeating: 0, count: 3)
        var rows = [Int32](repeating: 0, count: 3)
        var finished: Int32 = 0
        while finished == 0 {
            let result = gg_jpeg_planar_read(decoder, &planes, &strides, &rows, &finished)
            if result.status != 0 { try check(result, decoding: true) }
            for plane in 0..<count {
                guard let first = planes[plane] else { continue }
                for r in 0..<Int(rows[plane]) { row(plane, first + r * strides[plane]) }
            }
        }
        try check(gg_jpeg_planar_finish(decoder), decoding: true)
        return true
    }

    /// Encodes 4:2:0 planes as baseline JPEG with optimised Huffman tables,
    /// with no colour conversion or chroma downsampling in libjpeg.
    public static func encode(_ image: YCbCrImage, quality: Int, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        guard image.range == .full else { throw .encodeFailed("JPEG planes must be full range") }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let icc = iccProfile ?? []
        let result = image.luma.samples.withUnsafeBufferPointer { y in
            image.blue.samples.withUnsafeBufferPointer { cb in
                image.red.samples.withUnsafeBufferPointer { cr in
                    icc.withUnsafeBufferPointer { profile in
                        gg_jpeg_encode_planar(y.baseAddress, image.luma.width, cb.baseAddress, cr.baseAddress, image.blue.width,
                                              Int32(image.width), Int32(image.height), Int32(quality),
                                              profile.baseAddress, UInt32(profile.count), &output, &length)
                    }
                }
            }
        }
        defer { if let output { gg_jpeg_free(output) } }
        try check(result, decoding: false)
        guard let output else { throw .encodeFailed("no output") }
        return Array(UnsafeBufferPointer(start: output, count: length))
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
