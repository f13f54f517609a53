import ArgumentParser
import Benchmarking
import Foundation
import GalleryCore

/// `gallerygen looks FILE…`: each photo's perceptual hash and sharpness, as
/// the build makes them (used by scripts/stack_threshold.py).
struct LooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "looks",
        abstract: "Print each photo's perceptual hash and sharpness as the build makes them (used by scripts/stack_threshold.py).",
        shouldDisplay: false
    )

    @Argument(help: "Photo files.")
    var files: [String]

    func run() throws {
        let settings = BuildSettings(source: URL(fileURLWithPath: "/nonexistent"), output: URL(fileURLWithPath: "/nonexistent"))
        for file in files {
            if let looks = LooksProbe.looks(of: URL(fileURLWithPath: file), settings: settings) {
                print(String(format: "%016llx %u %@", looks.hash, looks.sharpness, file))
            } else {
                print("- - \(file)")
            }
        }
    }
}
