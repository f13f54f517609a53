import CRaw
import GalleryCore

/// Develops a camera RAW file with libraw, the cheap way when it is enough:
///
/// 1. The camera's embedded JPEG preview (its own rendering, full size on
///    most bodies since about 2010) when it is at least as large as the
///    largest rendition and has the sensor's shape: decoded like any JPEG,
///    at the smallest DCT scale that keeps the resampler's headroom.
/// 2. Otherwise libraw demosaics, at half size when half still covers the
///    largest rendition (four times less work), with the camera's white
///    balance and PPG interpolation, into 8-bit sRGB.
///
/// Either way the pixels are in sensor orientation (`user_flip` 0); libraw's
/// `flip` is applied after resizing, like EXIF orientation.
public enum RawCodec {
    /// Decodes and calls `body` with the pixels and their ICC profile.
    public static func withDecoded<T>(_ bytes: UnsafeRawBufferPointer, largestTarget: PixelSize, maximumPixels: Int,
                                      _ body: (BorrowedPixels, [UInt8]?) throws(ImagingError) -> T) throws(ImagingError) -> T {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .undecodable("empty file") }
        guard let raw = libraw_init(0) else { throw .undecodable("libraw could not allocate a decoder") }
        defer { libraw_close(raw) }
        try check(libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: base), bytes.count))
        let sizes = raw.pointee.sizes
        let sensor = PixelSize(width: Int(sizes.width), height: Int(sizes.height))
        let rawArea = Int(sizes.raw_width) * Int(sizes.raw_height)
        guard sensor.area > 0 else { throw .undecodable("RAW file declares no pixels") }
        guard max(sensor.area, rawArea) <= maximumPixels else {
            throw .tooLarge(pixels: max(sensor.area, rawArea), limit: maximumPixels)
        }

        if let preview = try preview(raw, sensor: sensor, largestTarget: largestTarget, maximumPixels: maximumPixels) {
            return try preview.image.withBorrowedPixels { (pixels) throws(ImagingError) in try body(pixels, preview.iccProfile) }
        }

        raw.pointee.params.user_flip = 0
        raw.pointee.params.use_camera_wb = 1
        raw.pointee.params.output_bps = 8
        raw.pointee.params.output_color = 1  // sRGB
        // PPG interpolation: about half AHD's CPU (0.8 s against 1.5 s for a
        // 12 MP develop here) for a difference screen-sized renditions hide.
        raw.pointee.params.user_qual = 2
        raw.pointee.params.half_size = sensor.width / 2 >= largestTarget.width && sensor.height / 2 >= largestTarget.height ? 1 : 0
        try check(libraw_unpack(raw))
        try check(libraw_dcraw_process(raw))
        var status: Int32 = 0
        guard let developed = libraw_dcraw_make_mem_image(raw, &status) else { try check(status); throw .undecodable("libraw made no image") }
        defer { libraw_dcraw_clear_mem(developed) }
        let image = developed.pointee
        guard image.type == LIBRAW_IMAGE_BITMAP, image.bits == 8, image.colors == 3, image.width > 0, image.height > 0,
              Int(image.data_size) >= Int(image.width) * Int(image.height) * 3 else {
            throw .undecodable("libraw made an image of an unexpected layout")
        }
        let data = UnsafeRawPointer(developed).advanced(by: MemoryLayout<libraw_processed_image_t>.offset(of: \.data)!)
            .assumingMemoryBound(to: UInt8.self)
        let pixels = BorrowedPixels(base: data, width: Int(image.width), height: Int(image.height), rowBytes: Int(image.width) * 3,
                                    channels: 3, hasAlpha: false)
        return try body(pixels, nil)
    }

    /// The embedded JPEG preview, decoded, when it can stand for the RAW.
    static func preview(_ raw: UnsafeMutablePointer<libraw_data_t>, sensor: PixelSize, largestTarget: PixelSize,
                        maximumPixels: Int) throws(ImagingError) -> DecodedImage? {
        guard libraw_unpack_thumb(raw) == LIBRAW_SUCCESS.rawValue else { return nil }
        let thumbnail = raw.pointee.thumbnail
        guard thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG, let start = thumbnail.thumb, thumbnail.tlength > 0 else { return nil }
        let jpeg = UnsafeRawBufferPointer(start: start, count: Int(thumbnail.tlength))
        guard let size = try? JPEGCodec.size(of: jpeg), size.width >= largestTarget.width, size.height >= largestTarget.height else {
            return nil
        }
        // Same shape as the sensor (within 2%): a preview already turned
        // upright, or cropped to another aspect, would not line up.
        let shape = Double(size.width) / Double(size.height), sensorShape = Double(sensor.width) / Double(sensor.height)
        guard abs(shape / sensorShape - 1) < 0.02 else { return nil }
        let denominator = DCTScale.denominator(stored: size, largestTarget: largestTarget)
        return try? JPEGCodec.decode(jpeg, scaleDenominator: denominator, maximumPixels: maximumPixels)
    }

    /// Turns a libraw status into an `ImagingError` with libraw's reason.
    static func check(_ status: Int32) throws(ImagingError) {
        guard status != LIBRAW_SUCCESS.rawValue else { return }
        throw .undecodable("libraw cannot develop it: \(String(cString: libraw_strerror(status)))")
    }
}
