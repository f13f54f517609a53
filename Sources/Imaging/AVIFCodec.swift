import CAVIF
import GalleryCore

/// AVIF encoding with libavif (AV1 intra frames through aom).
///
/// The pictures are the WebP renditions' own: the same limited-range BT.601
/// 4:2:0 planes (the planar path hands them over as they are), or RGBA
/// turned into them by libavif with the same matrix. The colour is signalled
/// the way the WebP rendition carries it: the source's ICC profile when it
/// has one, else sRGB (BT.709 primaries, sRGB transfer) in an `nclx` box.
public enum AVIFCodec {
    /// The AV1 encoder libavif drives: aom, at the speed and quality
    /// docs/avif.md measured. SVT-AV1 1.4 (through libavif 0.11) took the
    /// quantizers as hints only, and 3.4 s a 1600 px picture.
    static let codec = AVIF_CODEC_CHOICE_AOM

    /// The AV1 quantizer (0 best … 63 worst) of a quality 1–100, as libavif
    /// 1.0's `quality` maps it (0.11 in Debian 12 has only quantizers).
    public static func quantizer(quality: Int) -> Int32 {
        Int32(((100 - min(max(quality, 0), 100)) * 63 + 50) / 100)
    }

    /// Encodes 4:2:0 planes (BT.601, either range) at `quality` and `speed`.
    public static func encode(_ image: YCbCrImage, quality: Int, speed: Int, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        try encode(width: image.width, height: image.height, quality: quality, speed: speed, iccProfile: iccProfile,
                   range: image.range == .full ? AVIF_RANGE_FULL : AVIF_RANGE_LIMITED) { (avif) throws(ImagingError) in
            guard avifImageAllocatePlanes(avif, avifPlanesFlags(AVIF_PLANES_YUV.rawValue)) == AVIF_RESULT_OK else {
                throw .encodeFailed("out of memory allocating the AVIF planes")
            }
            for (index, plane) in [image.luma, image.blue, image.red].enumerated() {
                guard let target = avif.pointee.yuvPlanes(index) else { throw .encodeFailed("libavif gave no plane \(index)") }
                let stride = Int(avif.pointee.yuvRowBytes(index))
                plane.samples.withUnsafeBufferPointer { source in
                    for row in 0..<plane.height {
                        (target + row * stride).update(from: source.baseAddress! + row * plane.width, count: plane.width)
                    }
                }
            }
        }
    }

    /// Encodes an RGBA picture (alpha kept when it has any).
    public static func encode(_ image: RGBAImage, quality: Int, speed: Int, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        try encode(width: image.width, height: image.height, quality: quality, speed: speed, iccProfile: iccProfile,
                   range: AVIF_RANGE_LIMITED) { (avif) throws(ImagingError) in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, avif)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.ignoreAlpha = image.hasAlpha ? AVIF_FALSE : AVIF_TRUE
            rgb.rowBytes = UInt32(image.width * 4)
            let result = image.pixels.withUnsafeBufferPointer { pixels -> avifResult in
                rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress)
                return avifImageRGBToYUV(avif, &rgb)
            }
            guard result == AVIF_RESULT_OK else { throw .encodeFailed("libavif: \(String(cString: avifResultToString(result)))") }
        }
    }

    /// Sets up a 4:2:0 8-bit image of `width × height`, lets `fill` put the
    /// pixels in, and encodes it with one thread (a build encodes one photo per core).
    private static func encode(width: Int, height: Int, quality: Int, speed: Int, iccProfile: [UInt8]?, range: avifRange,
                               fill: (UnsafeMutablePointer<avifImage>) throws(ImagingError) -> Void) throws(ImagingError) -> [UInt8] {
        guard width > 0, height > 0, let avif = avifImageCreate(UInt32(width), UInt32(height), 8, AVIF_PIXEL_FORMAT_YUV420) else {
            throw .encodeFailed("libavif could not make a \(width)×\(height) image")
        }
        defer { avifImageDestroy(avif) }
        avif.pointee.yuvRange = range
        avif.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_BT601)
        if let iccProfile, !iccProfile.isEmpty {
            iccProfile.withUnsafeBufferPointer { avifImageSetProfileICC(avif, $0.baseAddress, $0.count) }
            avif.pointee.colorPrimaries = UInt16(AVIF_COLOR_PRIMARIES_UNSPECIFIED)
            avif.pointee.transferCharacteristics = UInt16(AVIF_TRANSFER_CHARACTERISTICS_UNSPECIFIED)
        } else {
            avif.pointee.colorPrimaries = UInt16(AVIF_COLOR_PRIMARIES_BT709)
            avif.pointee.transferCharacteristics = UInt16(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        }
        try fill(avif)
        guard let encoder = avifEncoderCreate() else { throw .encodeFailed("libavif could not make an encoder") }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.codecChoice = codec
        encoder.pointee.maxThreads = 1
        encoder.pointee.speed = Int32(min(max(speed, 0), 10))
        let quantizer = Self.quantizer(quality: quality)
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        encoder.pointee.maxQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        var output = avifRWData(data: nil, size: 0)
        defer { avifRWDataFree(&output) }
        let result = avifEncoderWrite(encoder, avif, &output)
        guard result == AVIF_RESULT_OK, let data = output.data else {
            throw .encodeFailed("libavif: \(String(cString: avifResultToString(result)))")
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }
}

extension avifImage {
    /// Plane `index` (0 Y, 1 U, 2 V): C arrays come into Swift as tuples.
    fileprivate func yuvPlanes(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
        switch index {
        case 0: return yuvPlanes.0
        case 1: return yuvPlanes.1
        default: return yuvPlanes.2
        }
    }

    fileprivate func yuvRowBytes(_ index: Int) -> UInt32 {
        switch index {
        case 0: return yuvRowBytes.0
        case 1: return yuvRowBytes.1
        default: return yuvRowBytes.2
        }
    }
}
