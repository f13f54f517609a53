import CHEIF
import Foundation
import GalleryCore
import Containers

/// Decodes the primary image of a HEIF/AVIF file with libheif.
///
/// libheif applies the HEIF transforms (`irot`, `imir`, `clap`), so the
/// pixels come out upright and EXIF Orientation is not applied again. 8-bit
/// SDR pictures are resized straight from libheif's interleaved buffer (no
/// copy), with their ICC profile (iPhones: Display P3) carried into the
/// renditions. Deeper, HDR or ICC-less wide-gamut pictures go through
/// `SRGBConversion` first.
public enum HEIFCodec {
    /// Decodes and calls `body` with the upright pixels and the ICC profile
    /// to attach. The pixels are valid only during the call.
    public static func withDecoded<T>(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int,
                                      _ body: (BorrowedPixels, [UInt8]?) throws(ImagingError) -> T) throws(ImagingError) -> T {
        try withPrimaryImage(bytes, maximumPixels: maximumPixels) { (handle) throws(ImagingError) in
            try decodeRGB(handle, colour: Colour(handle), body)
        }
    }

    /// The renditions of `sizes` from one open and one decode: the planar
    /// path when the picture allows it (the encoded results are returned),
    /// else the RGB pixels go to `rgb` (and nil is returned).
    public static func renditions(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int, sizes: [PixelSize], ranges: [YCbCrImage.Range],
                                  encode: (Int, YCbCrImage, [UInt8]?) throws(ImagingError) -> [UInt8],
                                  rgb: (BorrowedPixels, [UInt8]?) throws(ImagingError) -> Void) throws(ImagingError) -> [[UInt8]]? {
        try withPrimaryImage(bytes, maximumPixels: maximumPixels) { (handle) throws(ImagingError) -> [[UInt8]]? in
            let colour = Colour(handle)
            if let planar = try planarRenditions(handle, colour: colour, sizes: sizes, ranges: ranges, encode: encode) { return planar }
            try decodeRGB(handle, colour: colour, rgb)
            return nil
        }
    }

    /// The planar path alone (nil when the picture needs the RGB path), for tests.
    static func planarRenditions(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int, sizes: [PixelSize], ranges: [YCbCrImage.Range],
                                 encode: (Int, YCbCrImage, [UInt8]?) throws(ImagingError) -> [UInt8]) throws(ImagingError) -> [[UInt8]]? {
        try withPrimaryImage(bytes, maximumPixels: maximumPixels) { (handle) throws(ImagingError) -> [[UInt8]]? in
            try planarRenditions(handle, colour: Colour(handle), sizes: sizes, ranges: ranges, encode: encode)
        }
    }

    /// What the handle says about its colour, read once per file: the ICC
    /// profile, the `nclx` matrix, and the conversion to sRGB it needs.
    struct Colour {
        var icc: [UInt8]?
        var matrix: heif_matrix_coefficients?
        /// Nil for plain 8-bit pixels whose look the ICC profile (or sRGB) already gives.
        var conversion: SRGBConversion?

        init(_ handle: OpaquePointer) {
            icc = HEIFCodec.iccProfile(handle)
            let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
            var transfer = SRGBConversion.Transfer.sdr
            var primaries = SRGBConversion.Primaries.bt709
            var nclxOut: UnsafeMutablePointer<heif_color_profile_nclx>?
            let status = heif_image_handle_get_nclx_color_profile(handle, &nclxOut)
            // libheif allocates the profile before it validates it: free it on failure too.
            defer { if let nclxOut { heif_nclx_color_profile_free(nclxOut) } }
            if status.code == heif_error_Ok, let nclx = nclxOut {
                let n = nclx.pointee
                matrix = n.matrix_coefficients
                switch n.transfer_characteristics {
                case heif_transfer_characteristic_ITU_R_BT_2100_0_PQ: transfer = .pq
                case heif_transfer_characteristic_ITU_R_BT_2100_0_HLG: transfer = .hlg
                case heif_transfer_characteristic_linear: transfer = .linear
                default: break
                }
                // With an ICC profile the profile says what the RGB values mean.
                if icc == nil || transfer != .sdr, n.color_primaries != heif_color_primaries_unspecified,
                   n.color_primary_red_y > 0, n.color_primary_green_y > 0, n.color_primary_blue_y > 0, n.color_primary_white_y > 0 {
                    primaries = .init(red: [Double(n.color_primary_red_x), Double(n.color_primary_red_y)],
                                      green: [Double(n.color_primary_green_x), Double(n.color_primary_green_y)],
                                      blue: [Double(n.color_primary_blue_x), Double(n.color_primary_blue_y)],
                                      white: [Double(n.color_primary_white_x), Double(n.color_primary_white_y)])
                }
            }
            let depth = bits > 8 ? min(bits, 16) : 8
            let needed = SRGBConversion(transfer: transfer, primaries: primaries, maximumValue: (1 << depth) - 1)
            conversion = depth == 8 && needed.isDepthOnly ? nil : needed
        }
    }

    /// The planar fast path for the common case (opaque, SDR, BT.601 YCbCr,
    /// 8-bit or deeper; like the JPEG fast path): libheif hands out its Y, Cb
    /// and Cr planes at 4:2:0 with no RGB conversion, each plane is resampled
    /// as its rows are read, and the results go straight to the encoders.
    /// `encode(index, image, icc)` encodes the rendition of `sizes[index]`.
    /// Nil when the picture needs the RGB path (before decoding, except for a
    /// stream whose own matrix turns out not to be BT.601: rare, decoded again).
    static func planarRenditions(_ handle: OpaquePointer, colour: Colour, sizes: [PixelSize], ranges: [YCbCrImage.Range],
                                 encode: (Int, YCbCrImage, [UInt8]?) throws(ImagingError) -> [UInt8]) throws(ImagingError) -> [[UInt8]]? {
        // 8-bit, or deeper SDR that only needs its depth reduced (Sony HIF):
        // rows are rounded to 8 bits as they are streamed, so no 16-bit RGB
        // copy (a 33 MP HIF needed 1 GB that way) is made.
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        guard heif_image_handle_has_alpha_channel(handle) == 0, (8...16).contains(bits),
              colour.conversion.map(\.isDepthOnly) ?? true, colour.matrix.map(isBT601) ?? true else { return nil }
        let icc = colour.icc
        var imageOut: OpaquePointer?
        try check(heif_decode_image(handle, &imageOut, heif_colorspace_YCbCr, heif_chroma_420, nil))
        guard let image = imageOut else { throw .undecodable("libheif returned no image") }
        defer { heif_image_release(image) }
        // Without a colr box, the stream's own matrix and range, which libheif reports on the decoded image.
        var fullRange = true
        var decodedNCLX: UnsafeMutablePointer<heif_color_profile_nclx>?
        let decodedStatus = heif_image_get_nclx_color_profile(image, &decodedNCLX)
        defer { if let decodedNCLX { heif_nclx_color_profile_free(decodedNCLX) } }
        if decodedStatus.code == heif_error_Ok, let nclx = decodedNCLX {
            guard isBT601(nclx.pointee.matrix_coefficients) else { return nil }
            fullRange = nclx.pointee.full_range_flag != 0
        }
        let channels = [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
        var planes: [SourcePlane] = []
        for channel in channels {
            var stride: Int32 = 0
            guard let base = heif_image_get_plane_readonly(image, channel, &stride) else { return nil }
            let size = PixelSize(width: Int(heif_image_get_width(image, channel)), height: Int(heif_image_get_height(image, channel)))
            let depth = Int(heif_image_get_bits_per_pixel_range(image, channel))
            guard size.width > 0, size.height > 0, (8...16).contains(depth),
                  Int(stride) >= size.width * (depth > 8 ? 2 : 1) else { return nil }
            planes.append(SourcePlane(base: base, stride: Int(stride), size: size, depth: depth))
        }
        // The 4:2:0 layout the resamplers assume.
        guard planes[1].size == YCbCrImage.chromaSize(of: planes[0].size), planes[2].size == planes[1].size else { return nil }
        let layout = JPEGCodec.PlaneLayout(size: planes[0].size, planes: planes.map(\.size))
        return try PlanarRenditionMaker.make(sizes: sizes, ranges: ranges, orientation: .up, sourceRange: fullRange ? .full : .limited,
                                             stream: { (start, row) throws(ImagingError) in
            streamRows(planes, kept: start(layout), row: row)
            return true
        }, encode: { (index, picture) throws(ImagingError) in try encode(index, picture, icc) })
    }

    /// One plane of a decoded image, as libheif lends it.
    struct SourcePlane {
        var base: UnsafePointer<UInt8>
        var stride: Int
        var size: PixelSize
        /// Bits per sample: 8, or up to 16 in little-endian 16-bit words.
        var depth: Int
    }

    /// Hands every row of `planes` to `row`, plane by plane, in order. An
    /// 8-bit plane stays whole in libheif's image, so its rows are handed out
    /// in place; deeper samples are rounded to 8 bits row by row into a ring
    /// of the `kept[plane]` latest rows (what the resamplers read in place).
    static func streamRows(_ planes: [SourcePlane], kept: [Int], row: (Int, UnsafePointer<UInt8>) -> Void) {
        for (index, plane) in planes.enumerated() {
            let maximum = (1 << plane.depth) - 1, half = maximum / 2
            let ringRows = max(1, min(plane.size.height, index < kept.count ? kept[index] : 1))
            let narrowed = UnsafeMutablePointer<UInt8>.allocate(capacity: plane.depth > 8 ? ringRows * plane.size.width : 0)
            defer { narrowed.deallocate() }
            for y in 0..<plane.size.height {
                let source = plane.base + y * plane.stride
                guard plane.depth > 8 else { row(index, source); continue }
                let out = narrowed + (y % ringRows) * plane.size.width
                let words = UnsafeRawPointer(source)
                for x in 0..<plane.size.width {
                    let v = min(Int(words.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)), maximum)
                    out[x] = UInt8((v * 255 + half) / maximum)
                }
                row(index, UnsafePointer(out))
            }
        }
    }

    /// BT.601 (what JPEG and WebP store), or unspecified (which libheif reads as BT.601).
    static func isBT601(_ matrix: heif_matrix_coefficients) -> Bool {
        matrix == heif_matrix_coefficients_ITU_R_BT_601_6 || matrix == heif_matrix_coefficients_ITU_R_BT_470_6_System_B_G
            || matrix == heif_matrix_coefficients_unspecified
    }

    /// Opens the file, checks the primary image's size against the pixel
    /// limit (before any decoding), caps libheif's own limit, and lends the handle.
    static func withPrimaryImage<T>(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int,
                                    _ body: (OpaquePointer) throws(ImagingError) -> T) throws(ImagingError) -> T {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .undecodable("empty file") }
        // libheif's own limit takes one number for both sides; the per-side
        // check of streams and grid canvases is the guard (HEIFSizeRule).
        if let violation = HEIFCodedSize.violation(bytes) { throw .undecodable(violation) }
        guard let context = heif_context_alloc() else { throw .undecodable("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        // Grid tiles (iPhones store 48 of them) decoded on the calling thread:
        // the build already runs one photo per core, and libheif's own tile
        // threads only multiplied the decoded tiles in memory (README: same
        // speed, 1.58 GB -> 0.91 GB peak on 30 phone and camera HEIFs).
        heif_context_set_max_decoding_threads(context, 0)
        try check(heif_context_read_from_memory_without_copy(context, base, bytes.count, nil))
        var handleOut: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handleOut))
        guard let handle = handleOut else { throw .undecodable("HEIF file has no primary image") }
        defer { heif_image_handle_release(handle) }

        // The pixel limit, before any decoding: the shown size and the stored
        // one (the decoder allocates the stored size before cropping).
        let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
        let storedArea = Int(heif_image_handle_get_ispe_width(handle)) * Int(heif_image_handle_get_ispe_height(handle))
        let area = max(width * height, storedArea)
        guard width > 0, height > 0 else { throw .undecodable("HEIF image has no size") }
        guard area <= maximumPixels else { throw .tooLarge(pixels: area, limit: maximumPixels) }

        // libheif sizes a grid's canvas and a stream's pictures by what they
        // declare, not by the header checked above: its own size limit is
        // capped by HEIFSizeRule, so a lying file is refused, not allocated.
        let longestSide = max(width, height, Int(heif_image_handle_get_ispe_width(handle)), Int(heif_image_handle_get_ispe_height(handle)))
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: HEIFSizeRule.allowedSide(forHeaderSide: longestSide)))
        return try body(handle)
    }

    /// Decodes to interleaved RGB(A) and lends the pixels.
    static func decodeRGB<T>(_ handle: OpaquePointer, colour: Colour,
                             _ body: (BorrowedPixels, [UInt8]?) throws(ImagingError) -> T) throws(ImagingError) -> T {
        let icc = colour.icc, conversion = colour.conversion
        let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        let premultiplied = hasAlpha && heif_image_handle_is_premultiplied_alpha(handle) != 0
        let wide = (conversion?.maximumValue ?? 255) > 255
        let chroma: heif_chroma = wide ? (hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                                       : (hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var imageOut: OpaquePointer?
        try check(heif_decode_image(handle, &imageOut, heif_colorspace_RGB, chroma, nil))
        guard let image = imageOut else { throw .undecodable("libheif returned no image") }
        defer { heif_image_release(image) }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .undecodable("libheif returned no pixels")
        }
        let decodedWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let decodedHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard decodedWidth > 0, decodedHeight > 0 else { throw .undecodable("libheif returned an empty image") }
        let channels = hasAlpha ? 4 : 3
        if let conversion, !(conversion.isDepthOnly && !wide && !premultiplied) {
            let converted = conversion.convert(base: UnsafeRawPointer(plane), width: decodedWidth, height: decodedHeight,
                                               rowBytes: Int(stride), channels: channels, premultiplied: premultiplied)
            let keepICC = conversion.isDepthOnly ? icc : nil
            return try converted.withBorrowedPixels { (pixels) throws(ImagingError) in try body(pixels, keepICC) }
        }
        let pixels = BorrowedPixels(base: plane, width: decodedWidth, height: decodedHeight, rowBytes: Int(stride),
                                    channels: channels, hasAlpha: hasAlpha && anyTransparent(plane, decodedWidth, decodedHeight, Int(stride)))
        return try body(pixels, icc)
    }

    /// The embedded ICC profile (`prof`/`rICC`), if any.
    static func iccProfile(_ handle: OpaquePointer) -> [UInt8]? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0, size < 4 << 20 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard heif_image_handle_get_raw_color_profile(handle, &profile).code == heif_error_Ok else { return nil }
        return profile
    }

    static func anyTransparent(_ base: UnsafePointer<UInt8>, _ width: Int, _ height: Int, _ stride: Int) -> Bool {
        for y in 0..<height {
            let row = base + y * stride
            for x in 0..<width where row[x * 4 + 3] != 255 { return true }
        }
        return false
    }

    /// Turns a libheif status into an `ImagingError` with libheif's own reason.
    static func check(_ error: heif_error) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        let reason = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw .undecodable("libheif cannot decode it: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}
