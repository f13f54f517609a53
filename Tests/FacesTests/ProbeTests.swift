import XCTest
@testable import Faces

final class ProbeTests: XCTestCase {
    func testProbe() throws {
        let folder = URL(fileURLWithPath: "/work/main/.build/face-photo-sources/originals")
        for name in ["obama.jpg", "obama2.jpg", "obama3.jpg", "biden.jpg", "astronaut.png"] {
            let p = try FacePhotos.picture(name, folder: folder)
            let start = Date()
            let faces = try p.bytes.withUnsafeBufferPointer { try FacePhotos.finder().find(rgb: $0, width: p.width, height: p.height) }
            print("PROBE", name, p.width, p.height, String(format: "%.2fs", Date().timeIntervalSince(start)),
                  faces.map { String(format: "[%.3f %.3f %.3f %.3f s%.2f px%d]", $0.box.x, $0.box.y, $0.box.width, $0.box.height, $0.score, $0.pixels) })
        }
    }
}
