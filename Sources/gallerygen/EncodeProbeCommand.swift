import ArgumentParser
import Benchmarking
import Foundation
import GalleryCore

/// `gallerygen encode-probe --encodings webp:85,avif:60:6 --out DIR FILE…`:
/// each photo's renditions in each encoding, as a build makes them, with the
/// bytes and the encoder's CPU (used by scripts/bench_formats.py --renditions).
struct EncodeProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode-probe",
        abstract: "Make each photo's renditions in several encodings and print bytes and encode CPU (used by scripts/bench_formats.py).",
        shouldDisplay: false
    )

    @Option(help: "Encodings, comma-separated: webp:QUALITY, jpeg:QUALITY, avif:QUALITY:SPEED.")
    var encodings: String

    @Option(help: "Folder for the renditions and the unencoded pictures (PPM).")
    var out: String

    @Option(help: "Times each encoding is made; the fastest counts.")
    var repeats = 1

    @Argument(help: "Photo files.")
    var files: [String]

    func run() throws {
        let parsed = encodings.split(separator: ",").map { (String($0), EncodeProbe.encoding(String($0))) }
        if let bad = parsed.first(where: { $0.1 == nil }) { throw ValidationError("not an encoding: \(bad.0)") }
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let settings = BuildSettings(source: URL(fileURLWithPath: "/nonexistent"), output: folder)
        print("file\tencoding\tbox\tsize\tbytes\tencode_seconds")
        for file in files {
            guard let trials = try EncodeProbe.run(URL(fileURLWithPath: file), encodings: parsed.map { $0.1! }, settings: settings,
                                                   folder: folder, repeats: repeats) else {
                print("\(file)\t-\t-\t-\t-\t-")
                continue
            }
            for trial in trials {
                for rendition in trial.bytes {
                    print("\(file)\t\(EncodeProbe.label(trial.encoding))\t\(rendition.box)\t\(rendition.size)\t\(rendition.bytes)\t\(String(format: "%.4f", trial.encodeSeconds))")
                }
            }
        }
    }
}
