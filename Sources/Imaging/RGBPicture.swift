import GalleryCore

/// An upright 8-bit RGB picture, three bytes a pixel, rows packed: one of a
/// photo's renditions before it is encoded, lent to the faces stage so
/// finding faces costs no decode of its own.
public struct RGBPicture: Sendable {
    public let width: Int
    public let height: Int
    public var bytes: [UInt8]

    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 3, "an RGB picture has three bytes a pixel")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// The colours of a 4:2:0 image (BT.601, each chroma sample shared by
    /// its 2×2 pixels: detection looks at luma, the describer at a chip
    /// resampled to 150 px, neither at chroma's finest detail).
    public init(_ image: YCbCrImage) {
        let width = image.width, height = image.height
        let chromaWidth = image.blue.width
        // Limited-range samples are brought to full range first.
        let (lumaScale, lumaOffset): (Float, Float) = image.range == .full ? (1, 0) : (255 / 219, -16 * 255 / 219)
        let chromaScale: Float = image.range == .full ? 1 : 255 / 224
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        image.luma.samples.withUnsafeBufferPointer { luma in
            image.blue.samples.withUnsafeBufferPointer { blue in
                image.red.samples.withUnsafeBufferPointer { red in
                    rgb.withUnsafeMutableBufferPointer { out in
                        for y in 0..<height {
                            let chromaRow = (y / 2) * chromaWidth
                            for x in 0..<width {
                                let l = Float(luma[y * width + x]) * lumaScale + lumaOffset
                                let cb = (Float(blue[chromaRow + x / 2]) - 128) * chromaScale
                                let cr = (Float(red[chromaRow + x / 2]) - 128) * chromaScale
                                let at = (y * width + x) * 3
                                out[at] = Self.clamp(l + 1.402 * cr)
                                out[at + 1] = Self.clamp(l - 0.344136 * cb - 0.714136 * cr)
                                out[at + 2] = Self.clamp(l + 1.772 * cb)
                            }
                        }
                    }
                }
            }
        }
        self.init(width: width, height: height, bytes: rgb)
    }

    /// The colours of an RGBA image, its alpha dropped.
    public init(_ image: RGBAImage) {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { out in
                for pixel in 0..<(image.width * image.height) {
                    out[pixel * 3] = source[pixel * 4]
                    out[pixel * 3 + 1] = source[pixel * 4 + 1]
                    out[pixel * 3 + 2] = source[pixel * 4 + 2]
                }
            }
        }
        self.init(width: image.width, height: image.height, bytes: rgb)
    }

    private static func clamp(_ value: Float) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
}

/// Which of a photo's still renditions to lend as an `RGBPicture`, and to whom.
public struct PictureTap {
    /// The job (an index into the jobs given to `RenditionMaker.make`).
    public let job: Int
    /// Called once, on the calling thread, with that rendition upright.
    public let take: (RGBPicture) -> Void

    public init(job: Int, take: @escaping (RGBPicture) -> Void) {
        self.job = job
        self.take = take
    }
}
