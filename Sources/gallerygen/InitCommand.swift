import ArgumentParser
import Configuration
import Foundation
import GalleryCore

/// `gallerygen init [FOLDER]`: writes a commented gallery.yml.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented gallery.yml (every setting, with its default) into FOLDER, creating FOLDER if needed."
    )

    @Argument(help: "The photo folder (default: the current folder).")
    var folder: String = "."

    @Flag(help: "Replace an existing gallery.yml.")
    var force = false

    func run() throws {
        let folderURL = URL(fileURLWithPath: folder)
        let url = folderURL.appendingPathComponent(SourceLayout.configFileName)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ValidationFailure(message: "'\(folder)' exists and is not a folder") }
        } else {
            do {
                try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
            } catch {
                throw ValidationFailure(message: "cannot create folder '\(folder)': \(error.localizedDescription)")
            }
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
