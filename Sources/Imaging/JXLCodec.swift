import CJXL
import Foundation

/// Decodes a JPEG XL still with libjxl.
///
/// libjxl turns the pixels upright itself (its orientation is not applied
/// again). 8-bit pictures whose colour the ICC profile (or sRGB) already
/// gives are lent as they are, with the profile carried into the
/// renditions; deeper, HDR (PQ, HLG), linear or wide-gamut ones without a
/// profile are decoded to 16 bits and converted by `SRGBConversion`, as
/// HEIF's are. The size is checked on the header, before any pixel exists.
public enum JXLCodec {
    /// Decodes and calls `body` with the upright pixels and the ICC profile
    /// to attach. The pixels are valid only during the call.
    public static func withDecoded<T>(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int,
                                      _ body: (BorrowedPixels, [UInt8]?) throws(ImagingError) -> T) throws(ImagingError) -> T {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .undecodable("empty file") }
        guard let decoder = JxlDecoderCreate(nil) else { throw .undecodable("libjxl could not allocate a decoder") }
        defer { JxlDecoderDestroy(decoder) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
        try check(JxlDecoderSubscribeEvents(decoder, events), "events")
        // Pixels as the renditions want them: straight alpha.
        try check(JxlDecoderSetUnpremultiplyAlpha(decoder, 1), "alpha")
        try check(JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count), "input")
        JxlDecoderCloseInput(decoder)

        var info = JxlBasicInfo()
        var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var icc: [UInt8]?
        var conversion: SRGBConversion?
        var pixels: [UInt8] = []
        var rowBytes = 0
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                try check(JxlDecoderGetBasicInfo(decoder, &info), "header")
                let area = Int(info.xsize) * Int(info.ysize)
                guard info.xsize > 0, info.ysize > 0 else { throw .undecodable("JPEG XL image has no size") }
                guard area <= maximumPixels else { throw .tooLarge(pixels: area, limit: maximumPixels) }
                format.num_channels = info.alpha_bits > 0 ? 4 : 3
            case JXL_DEC_COLOR_ENCODING:
                let found = colour(decoder, info: info)
                icc = found.icc
                // What needs converting is decoded to 16 bits, then converted.
                conversion = found.conversion.map { SRGBConversion(transfer: $0.transfer, primaries: $0.primaries, maximumValue: 65_535) }
                format.data_type = conversion == nil ? JXL_TYPE_UINT8 : JXL_TYPE_UINT16
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                try check(JxlDecoderImageOutBufferSize(decoder, &format, &size), "buffer size")
                let sampleBytes = format.data_type == JXL_TYPE_UINT16 ? 2 : 1
                rowBytes = Int(info.xsize) * Int(format.num_channels) * sampleBytes
                guard size == rowBytes * Int(info.ysize) else { throw .undecodable("libjxl asks for an unexpected buffer") }
                pixels = [UInt8](repeating: 0, count: size)
                let set = pixels.withUnsafeMutableBytes { JxlDecoderSetImageOutBuffer(decoder, &format, $0.baseAddress, size) }
                try check(set, "buffer")
            case JXL_DEC_FULL_IMAGE:
                // The first frame is the still (an animation's later frames are not read).
                return try lend(pixels, info: info, format: format, rowBytes: rowBytes, icc: icc, conversion: conversion, body)
            case JXL_DEC_SUCCESS:
                throw .undecodable("JPEG XL file has no image")
            case JXL_DEC_NEED_MORE_INPUT:
                throw .undecodable("JPEG XL file is cut short")
            default:
                throw .undecodable("libjxl cannot decode it")
            }
        }
    }

    /// The ICC profile to carry (8-bit pictures) and the conversion the
    /// decoded values need, from the colour the pixels come out in.
    static func colour(_ decoder: OpaquePointer, info: JxlBasicInfo) -> (icc: [UInt8]?, conversion: SRGBConversion?) {
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
           encoding.color_space == JXL_COLOR_SPACE_RGB {
            let transfer: SRGBConversion.Transfer
            switch encoding.transfer_function {
            case JXL_TRANSFER_FUNCTION_PQ: transfer = .pq
            case JXL_TRANSFER_FUNCTION_HLG: transfer = .hlg
            case JXL_TRANSFER_FUNCTION_LINEAR: transfer = .linear
            default: transfer = .sdr
            }
            let primaries: SRGBConversion.Primaries
            switch encoding.primaries {
            case JXL_PRIMARIES_SRGB: primaries = .bt709
            case JXL_PRIMARIES_2100: primaries = .bt2020
            default:
                func xy(_ pair: (Double, Double)) -> SIMD2<Double> { [pair.0, pair.1] }
                primaries = .init(red: xy(encoding.primaries_red_xy), green: xy(encoding.primaries_green_xy),
                                  blue: xy(encoding.primaries_blue_xy), white: xy(encoding.white_point_xy))
            }
            let conversion = SRGBConversion(transfer: transfer, primaries: primaries, maximumValue: 255)
            return (nil, conversion.isDepthOnly && info.bits_per_sample <= 8 ? nil : conversion)
        }
        // Described by an ICC profile only: 8-bit values with the profile attached.
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
              size > 0, size < 4 << 20 else { return (nil, nil) }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size) == JXL_DEC_SUCCESS else {
            return (nil, nil)
        }
        return (profile, nil)
    }

    static func lend<T>(_ pixels: [UInt8], info: JxlBasicInfo, format: JxlPixelFormat, rowBytes: Int, icc: [UInt8]?,
                        conversion: SRGBConversion?,
                        _ body: (BorrowedPixels, [UInt8]?) throws(ImagingError) -> T) throws(ImagingError) -> T {
        let width = Int(info.xsize), height = Int(info.ysize), channels = Int(format.num_channels)
        if let conversion {
            let converted = pixels.withUnsafeBytes {
                conversion.convert(base: $0.baseAddress!, width: width, height: height, rowBytes: rowBytes, channels: channels,
                                   premultiplied: false)
            }
            return try converted.withBorrowedPixels { (borrowed) throws(ImagingError) in try body(borrowed, nil) }
        }
        return try pixels.withUnsafeBufferPointer { (buffer) throws(ImagingError) -> T in
            let base = buffer.baseAddress!
            var transparent = false
            if channels == 4 {
                for y in 0..<height where !transparent {
                    for x in 0..<width where base[y * rowBytes + x * 4 + 3] != 255 {
                        transparent = true
                        break
                    }
                }
            }
            return try body(BorrowedPixels(base: base, width: width, height: height, rowBytes: rowBytes, channels: channels,
                                           hasAlpha: transparent), icc)
        }
    }

    static func check(_ status: JxlDecoderStatus, _ what: String) throws(ImagingError) {
        guard status == JXL_DEC_SUCCESS else { throw .undecodable("libjxl refused the \(what)") }
    }
}
