import ArgumentParser
import Configuration
import Foundation

/// `gallerygen init [FOLDER]`: writes a commented gallery.yml.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented gallery.yml (every setting, with its default) into FOLDER."
    )

    @Argument(help: "The photo folder (default: the current folder).")
    var folder: String = "."

    @Flag(help: "Replace an existing gallery.yml.")
    var force = false

    func run() throws {
        let url = URL(fileURLWithPath: folder).appendingPathComponent("gallery.yml")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationFailure(message: "folder '\(folder)' does not exist")
        }
        if FileManager.default.fileExists(atPath: url.path), !force {
            throw ValidationFailure(message: "\(url.path) already exists (use --force to replace it)")
        }
        do {
            try ConfigTemplate.text.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            throw ValidationFailure(message: "cannot write \(url.path): \(error.localizedDescription)")
        }
        print("Wrote \(url.path)")
    }
}
