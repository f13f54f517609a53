import CRaw
import Foundation
import GalleryCore

/// A camera RAW file as libraw sees it before unpacking any pixels: the
/// developed image's size in sensor orientation, libraw's `flip` as an EXIF
/// orientation, and the exposure facts.
struct RawStructure {
    /// The developed size before orientation.
    var size: PixelSize
    var orientation: Orientation
    var facts = ExifFacts()

    init(_ bytes: UnsafeRawBufferPointer, modificationDate: Date) throws(MetadataError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .empty }
        guard let raw = libraw_init(0) else { throw .malformed("libraw could not allocate a decoder") }
        defer { libraw_close(raw) }
        let status = libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: base), bytes.count)
        guard status == LIBRAW_SUCCESS.rawValue else {
            throw .malformed("RAW file not readable by libraw: \(String(cString: libraw_strerror(status)))")
        }
        let sizes = raw.pointee.sizes
        let width = Int(sizes.width), height = Int(sizes.height)
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        size = PixelSize(width: width, height: height)
        orientation = Self.orientation(flip: Int(sizes.flip))

        let idata = raw.pointee.idata, other = raw.pointee.other
        facts.camera.make = Self.text(idata.make)
        facts.camera.model = Self.text(idata.model)
        facts.camera.lens = Self.text(raw.pointee.lens.Lens)
        facts.camera.iso = Self.iso(speed: other.iso_speed)
        if other.shutter > 0, other.shutter.isFinite { facts.camera.exposureTime = Double(other.shutter) }
        if other.aperture > 0, other.aperture.isFinite { facts.camera.fNumber = Double(other.aperture) }
        if other.focal_len > 0, other.focal_len.isFinite { facts.camera.focalLength = Double(other.focal_len) }
        if other.timestamp > 0 {
            // libraw turns the camera's wall-clock time into a time_t with
            // mktime (this process's zone); the same zone turns it back.
            var date = CaptureDate(fileTime: Date(timeIntervalSince1970: TimeInterval(other.timestamp)))
            date.utcOffsetSeconds = nil
            date.source = .original
            facts.rawDate = date
        }
        let gps = other.parsed_gps
        if gps.gpsparsed != 0 {
            let lat = Double(gps.latitude.0) + Double(gps.latitude.1) / 60 + Double(gps.latitude.2) / 3600
            let lon = Double(gps.longitude.0) + Double(gps.longitude.1) / 60 + Double(gps.longitude.2) / 3600
            let latitude = gps.latref == CChar(UInt8(ascii: "S")) ? -lat : lat, longitude = gps.longref == CChar(UInt8(ascii: "W")) ? -lon : lon
            if latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0 {
                facts.gps = GPSCoordinate(latitude: latitude, longitude: longitude)
            }
        }
    }

    /// libraw's ISO speed (a float, from the file) as a whole number; nil
    /// when there is none or it is out of `Int`'s range (converting an
    /// infinite or huge float to `Int` would stop the build).
    static func iso(speed: Float) -> Int? {
        guard speed > 0, speed.isFinite else { return nil }
        return Int(exactly: speed.rounded())
    }

    /// libraw's `flip` (0, 3, 5, 6) as an EXIF orientation.
    static func orientation(flip: Int) -> Orientation {
        switch flip {
        case 3: return .down
        case 5: return .left
        case 6: return .right
        default: return .up
        }
    }

    /// A fixed-size C string field, cleaned like every other untrusted text.
    static func text<T>(_ field: T) -> String? {
        withUnsafeBytes(of: field) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return UntrustedText.clean(Array(bytes[0..<end]))
        }
    }
}
