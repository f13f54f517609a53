import CWebP
import GalleryCore

/// WebP decoding and encoding with libwebp (and its mux library for ICC).
public enum WebPCodec {
    /// Decodes a still WebP, or the first frame of an animated one, to RGBA.
    public static func decode(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int) throws(ImagingError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .undecodable("empty file") }
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(base, bytes.count, &features) == VP8_STATUS_OK else {
            throw .undecodable("WebP bitstream is malformed")
        }
        let icc = iccProfile(bytes)
        if features.has_animation != 0 {
            var first: RGBAImage?
            try WebPAnimation.forEachFrame(bytes, maximumPixels: maximumPixels, frameLimit: 1) { canvas, _ in first = canvas }
            guard let first else { throw .undecodable("animated WebP has no frame") }
            return DecodedImage(image: first, iccProfile: icc)
        }
        let width = Int(features.width), height = Int(features.height)
        guard width > 0, height > 0 else { throw .undecodable("WebP declares no pixels") }
        guard width * height <= maximumPixels else { throw .tooLarge(pixels: width * height, limit: maximumPixels) }
        var ok = false
        var image = RGBAImage(width: width, height: height, hasAlpha: features.has_alpha != 0) { buffer in
            ok = WebPDecodeRGBAInto(base, bytes.count, buffer.baseAddress, buffer.count, Int32(width * 4)) != nil
            if !ok { buffer.update(repeating: 0) }
        }
        guard ok else { throw .undecodable("WebP image data is corrupt or cut short") }
        if image.hasAlpha { image.hasAlpha = image.pixels.withUnsafeBufferPointer(RGBAImage.anyTransparent) }
        return DecodedImage(image: image, iccProfile: icc)
    }

    /// The ICCP chunk, if any.
    static func iccProfile(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demux = WebPDemux(&data) else { return nil }
        defer { WebPDemuxDelete(demux) }
        var iterator = WebPChunkIterator()
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard WebPDemuxGetChunk(demux, "ICCP", 1, &iterator) != 0, let chunk = iterator.chunk.bytes, iterator.chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: chunk, count: iterator.chunk.size))
    }

    /// Encodes lossy WebP at `quality`; `method` trades speed (0) for size (6).
    /// The alpha plane is written only when the image has transparency.
    public static func encode(_ image: RGBAImage, quality: Int, method: Int = 4, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        try encode(width: image.width, height: image.height, quality: quality, method: method, iccProfile: iccProfile) {
            (picture: inout WebPPicture) throws(ImagingError) in
            let imported = image.pixels.withUnsafeBufferPointer { pixels in
                image.hasAlpha
                    ? WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(image.width * 4))
                    : WebPPictureImportRGBX(&picture, pixels.baseAddress, Int32(image.width * 4))
            }
            guard imported != 0 else { throw .encodeFailed("out of memory importing pixels") }
        }
    }

    /// Full-range (JPEG) to limited-range (WebP's BT.601 "studio swing") tables.
    static let lumaToLimited: [UInt8] = (0..<256).map { UInt8((Double($0) * 219 / 255 + 16).rounded()) }
    static let chromaToLimited: [UInt8] = (0..<256).map { UInt8(((Double($0) - 128) * 224 / 255 + 128).rounded()) }

    /// Encodes 4:2:0 planes as lossy WebP: the planes go straight into the
    /// encoder's YUV picture (no RGB round trip); full-range planes are
    /// rescaled to the limited range VP8 defines (limited ones, which the
    /// resampler makes in one rounding, are copied).
    public static func encode(_ image: YCbCrImage, quality: Int, method: Int = 4, iccProfile: [UInt8]?) throws(ImagingError) -> [UInt8] {
        try encode(width: image.width, height: image.height, quality: quality, method: method, iccProfile: iccProfile) {
            (picture: inout WebPPicture) throws(ImagingError) in
            picture.colorspace = WEBP_YUV420
            guard WebPPictureAlloc(&picture) != 0, let y = picture.y, let u = picture.u, let v = picture.v else {
                throw .encodeFailed("out of memory allocating the picture")
            }
            copy(image.luma, range: image.range, into: y, stride: Int(picture.y_stride), table: lumaToLimited)
            copy(image.blue, range: image.range, into: u, stride: Int(picture.uv_stride), table: chromaToLimited)
            copy(image.red, range: image.range, into: v, stride: Int(picture.uv_stride), table: chromaToLimited)
        }
    }

    /// Copies one plane into the picture, through `table` when it is full range.
    private static func copy(_ plane: Plane, range: YCbCrImage.Range, into target: UnsafeMutablePointer<UInt8>, stride: Int,
                             table: [UInt8]) {
        if range == .limited {
            plane.samples.withUnsafeBufferPointer { source in
                for row in 0..<plane.height {
                    (target + row * stride).update(from: source.baseAddress! + row * plane.width, count: plane.width)
                }
            }
            return
        }
        table.withUnsafeBufferPointer { lut in
            plane.samples.withUnsafeBufferPointer { source in
                for row in 0..<plane.height {
                    let s = source.baseAddress! + row * plane.width
                    let t = target + row * stride
                    for x in 0..<plane.width { t[x] = lut[Int(s[x])] }
                }
            }
        }
    }

    /// Lossy encoder settings at `quality` (0–100) and `method` (speed 0 to size 6).
    static func config(quality: Int, method: Int) throws(ImagingError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .encodeFailed("libwebp version mismatch") }
        config.quality = Float(quality)
        config.method = Int32(method)
        return config
    }

    /// Sets up the encoder and a YUV picture of `width × height`, lets `fill`
    /// put the pixels in, encodes, and adds the ICC profile.
    private static func encode(width: Int, height: Int, quality: Int, method: Int, iccProfile: [UInt8]?,
                               fill: (inout WebPPicture) throws(ImagingError) -> Void) throws(ImagingError) -> [UInt8] {
        var config = try Self.config(quality: quality, method: method)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodeFailed("libwebp version mismatch") }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 0  // YUV: lossy output needs nothing else
        defer { WebPPictureFree(&picture) }
        try fill(&picture)
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer -> Int32 in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw .encodeFailed("libwebp error \(picture.error_code.rawValue)")
        }
        let bitstream = Array(UnsafeBufferPointer(start: memory, count: writer.size))
        guard let icc = iccProfile, !icc.isEmpty else { return bitstream }
        return try attach(icc: icc, to: bitstream)
    }

    /// Wraps a still bitstream in a VP8X container with an ICCP chunk.
    static func attach(icc: [UInt8], to bitstream: [UInt8]) throws(ImagingError) -> [UInt8] {
        guard let mux = WebPMuxNew() else { throw .encodeFailed("out of memory") }
        defer { WebPMuxDelete(mux) }
        var assembled = WebPData()
        let status: WebPMuxError = bitstream.withUnsafeBufferPointer { image in
            icc.withUnsafeBufferPointer { profile in
                var imageData = WebPData(bytes: image.baseAddress, size: image.count)
                var profileData = WebPData(bytes: profile.baseAddress, size: profile.count)
                var result = WebPMuxSetImage(mux, &imageData, 1)
                if result == WEBP_MUX_OK { result = WebPMuxSetChunk(mux, "ICCP", &profileData, 1) }
                if result == WEBP_MUX_OK { result = WebPMuxAssemble(mux, &assembled) }
                return result
            }
        }
        defer { WebPDataClear(&assembled) }
        guard status == WEBP_MUX_OK, let bytes = assembled.bytes else { throw .encodeFailed("WebP mux error \(status.rawValue)") }
        return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
    }
}
