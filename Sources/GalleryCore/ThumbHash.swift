import Foundation

/// A photo's placeholder: a ThumbHash (Evan Wallace's format, 21–25 bytes)
/// of a small copy of it. It holds the average colour, the aspect ratio and
/// a few low-frequency cosine terms of lightness, two colour differences and
/// alpha, so a page can paint a soft sketch of every photo before a byte of
/// the photos themselves arrives. Chosen over BlurHash (more bytes for less
/// colour, no alpha, no aspect ratio) and over a few-pixel image inlined as a
/// data URL (about 150 bytes a tile, ten times more in every page).
///
/// The site's decoder is `placeholders.js`; `scripts/check_thumbhash.py`
/// compares this encoder with the reference one on PyPI.
public enum ThumbHash {
    /// The longest side of the picture the hash is made from (the format's limit).
    public static let maximumSide = 100

    /// The hash of an RGBA picture of at most `maximumSide` pixels a side
    /// (`rgba`: `width × height × 4` bytes, straight alpha).
    public static func encode(width w: Int, height h: Int, rgba: [UInt8]) -> [UInt8] {
        precondition(w > 0 && h > 0 && w <= maximumSide && h <= maximumSide && rgba.count == w * h * 4, "a ThumbHash is made of at most 100×100 RGBA")
        // The average colour, weighted by alpha: what transparent pixels are painted as.
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            average.r += alpha / 255 * Double(rgba[i * 4])
            average.g += alpha / 255 * Double(rgba[i * 4 + 1])
            average.b += alpha / 255 * Double(rgba[i * 4 + 2])
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(w * h)
        let lightnessLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, round(lightnessLimit * Double(w) / longest))
        let ly = max(1, round(lightnessLimit * Double(h) / longest))
        // Lightness, two colour differences (yellow–blue, red–green) and alpha, over the average colour.
        var l = [Double](repeating: 0, count: w * h), p = l, q = l, a = l
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let r = average.r * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
            let g = average.g * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
            let b = average.b * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }
        let lightness = Channel(l, width: w, height: h, nx: max(3, lx), ny: max(3, ly))
        let yellowBlue = Channel(p, width: w, height: h, nx: 3, ny: 3)
        let redGreen = Channel(q, width: w, height: h, nx: 3, ny: 3)
        let isLandscape = w > h
        let header24 = round(63 * lightness.dc) | round(31.5 + 31.5 * yellowBlue.dc) << 6 | round(31.5 + 31.5 * redGreen.dc) << 12
            | round(31 * lightness.scale) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? ly : lx) | round(63 * yellowBlue.scale) << 3 | round(63 * redGreen.scale) << 9 | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16), UInt8(header16 & 255), UInt8(header16 >> 8)]
        var channels = [lightness, yellowBlue, redGreen]
        if hasAlpha {
            let alpha = Channel(a, width: w, height: h, nx: 5, ny: 5)
            hash.append(UInt8(round(15 * alpha.dc) | round(15 * alpha.scale) << 4))
            channels.append(alpha)
        }
        // The cosine terms, four bits each, two to a byte (low nibble first).
        var index = 0
        let start = hash.count
        for channel in channels {
            for term in channel.ac {
                if start + index / 2 == hash.count { hash.append(0) }
                hash[start + index / 2] |= UInt8(round(15 * term)) << ((index & 1) * 4)
                index += 1
            }
        }
        return hash
    }

    /// `x` rounded as JavaScript's Math.round does (half up), as an integer.
    private static func round(_ x: Double) -> Int { Int((x + 0.5).rounded(.down)) }

    /// One channel's cosine transform: its mean, the other terms (scaled to
    /// 0...1 around 0.5 by the largest), and that largest term.
    private struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0

        /// The terms (cx, cy) with cx·ny < nx·(ny − cy): a triangle of low frequencies.
        init(_ values: [Double], width w: Int, height h: Int, nx: Int, ny: Int) {
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    var f = 0.0
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        }
    }

    /// A `width × height` RGB(A) picture reduced to at most `maximumSide` a
    /// side by averaging whole boxes of pixels, as RGBA: what `encode` takes.
    public static func reduce(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8]) {
        let factor = max(1, (max(width, height) + maximumSide - 1) / maximumSide)
        let w = max(1, width / factor), h = max(1, height / factor)
        var rgba = [UInt8](repeating: 255, count: w * h * 4)
        // One channel at a time: no array of sums made per pixel (this runs for every photo).
        for c in 0..<min(channels, 4) {
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0, count = 0
                    for sy in (y * factor)..<min(height, (y + 1) * factor) {
                        for sx in (x * factor)..<min(width, (x + 1) * factor) {
                            sum += Int(pixels[(sy * width + sx) * channels + c])
                            count += 1
                        }
                    }
                    rgba[(y * w + x) * 4 + c] = UInt8((sum + count / 2) / max(count, 1))
                }
            }
        }
        return (w, h, rgba)
    }
}
