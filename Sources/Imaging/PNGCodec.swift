import CPNG
import GalleryCore

/// PNG decoding through libpng's simplified API, which reports errors in
/// `png_image.message` rather than by longjmp.
public enum PNGCodec {
    /// Decodes any PNG (palette, grey, 16-bit, interlaced) to 8-bit RGBA.
    public static func decode(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int) throws(ImagingError) -> DecodedImage {
        var header = png_image()
        header.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&header, bytes.baseAddress, bytes.count) != 0 else {
            throw .undecodable(failure(header))
        }
        let width = Int(header.width), height = Int(header.height)
        guard width > 0, height > 0 else {
            png_image_free(&header)
            throw .undecodable("PNG declares no pixels")
        }
        guard width * height <= maximumPixels else {
            png_image_free(&header)
            throw .tooLarge(pixels: width * height, limit: maximumPixels)
        }
        header.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
        var ok = false
        var image = RGBAImage(width: width, height: height, hasAlpha: true) { buffer in
            ok = png_image_finish_read(&header, nil, buffer.baseAddress, Int32(width * 4), nil) != 0
            if !ok { buffer.update(repeating: 0) }
        }
        guard ok else {
            let reason = failure(header)
            png_image_free(&header)
            throw .undecodable(reason)
        }
        png_image_free(&header)
        image.hasAlpha = image.pixels.withUnsafeBufferPointer(RGBAImage.anyTransparent)
        return DecodedImage(image: image, iccProfile: nil)
    }

    private static func failure(_ image: png_image) -> String {
        let text = withUnsafeBytes(of: image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return text.isEmpty ? "not a readable PNG" : "PNG: \(text)"
    }
}
