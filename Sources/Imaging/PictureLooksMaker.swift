import Foundation
import GalleryCore

extension PictureLooks {
    /// The side of the grey square the hash is taken from, and of its block of lowest frequencies.
    static let side = 32, block = 8

    /// The looks of `picture` (any size, one pixel too).
    public init(_ picture: RGBPicture) {
        let width = max(1, picture.width), height = max(1, picture.height)
        var grey = [Float](repeating: 0, count: width * height)
        picture.bytes.withUnsafeBufferPointer { rgb in
            for pixel in 0..<min(grey.count, rgb.count / 3) {
                grey[pixel] = 0.299 * Float(rgb[pixel * 3]) + 0.587 * Float(rgb[pixel * 3 + 1]) + 0.114 * Float(rgb[pixel * 3 + 2])
            }
        }
        let small = ThumbHash.reduce(width: picture.width, height: picture.height, channels: 3, pixels: picture.bytes)
        self.init(hash: Self.hash(grey, width: width, height: height), sharpness: Self.sharpness(grey, width: width, height: height),
                  placeholder: ThumbHash.encode(width: small.width, height: small.height, rgba: small.rgba))
    }

    /// The mean of each cell of a `side`×`side` grid over the picture (a
    /// picture smaller than the grid repeats its pixels).
    static func square(_ grey: [Float], width: Int, height: Int) -> [Float] {
        var out = [Float](repeating: 0, count: side * side)
        for cy in 0..<side {
            let y0 = cy * height / side, y1 = max(y0 + 1, (cy + 1) * height / side)
            for cx in 0..<side {
                let x0 = cx * width / side, x1 = max(x0 + 1, (cx + 1) * width / side)
                var sum: Float = 0
                for y in y0..<min(y1, height) { for x in x0..<min(x1, width) { sum += grey[y * width + x] } }
                out[cy * side + cx] = sum / Float((min(y1, height) - y0) * (min(x1, width) - x0))
            }
        }
        return out
    }

    /// cos((2x + 1)uπ / 2N) for the block's frequencies u and the square's x.
    static let cosines: [Float] = (0..<block).flatMap { u in
        (0..<side).map { x in Float(cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * side))) }
    }

    static func hash(_ grey: [Float], width: Int, height: Int) -> UInt64 {
        let square = square(grey, width: width, height: height)
        // The DCT's lowest frequencies only: rows, then columns.
        var rows = [Float](repeating: 0, count: side * block)
        for y in 0..<side {
            for u in 0..<block {
                var sum: Float = 0
                for x in 0..<side { sum += square[y * side + x] * cosines[u * side + x] }
                rows[y * block + u] = sum
            }
        }
        var coefficients = [Float](repeating: 0, count: block * block)
        for v in 0..<block {
            for u in 0..<block {
                var sum: Float = 0
                for y in 0..<side { sum += rows[y * block + u] * cosines[v * side + y] }
                coefficients[v * block + u] = sum
            }
        }
        // The mean (the first) says brightness, not the scene: left out of the median and the bits.
        let ac = coefficients.dropFirst()
        let median = ac.sorted()[(block * block - 1) / 2]
        // Rounding's crumbs are no detail: a flat picture has no bit set.
        let tolerance = 1e-3 * (ac.map(abs).max() ?? 0) + 1e-3
        var bits: UInt64 = 0
        for i in 1..<(block * block) where coefficients[i] > median + tolerance { bits |= 1 << UInt64(i) }
        return bits
    }

    static func sharpness(_ grey: [Float], width: Int, height: Int) -> UInt32 {
        guard width > 2, height > 2 else { return 0 }
        var sum: Double = 0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let at = y * width + x
                let laplacian = 4 * grey[at] - grey[at - 1] - grey[at + 1] - grey[at - width] - grey[at + width]
                sum += Double(laplacian * laplacian)
            }
        }
        // In hundredths: a smooth picture's is well under one.
        return UInt32(min(Double(UInt32.max), (100 * sum / Double((width - 2) * (height - 2))).rounded()))
    }
}
