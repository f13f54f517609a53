import ArgumentParser
import Foundation
import GalleryKit

MemoryTuning.apply()
Interruption.install()

// Parse and run by hand so every failure — bad flag included — is one line on
// stderr with a non-zero status, while --help and --version still print normally.
do {
    var command = try Gallerygen.parseAsRoot()
    if var asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(&asyncCommand)
    } else {
        try command.run()
    }
} catch {
    if Gallerygen.exitCode(for: error) == .success {
        Gallerygen.exit(withError: error)
    }
    let message = Gallerygen.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
    FileHandle.standardError.write(Data("gallerygen: error: \(message)\n".utf8))
    let code = Gallerygen.exitCode(for: error)
    exit(code == .success ? 1 : code.rawValue)
}

/// Calls the async `run()` (a plain call could resolve to the synchronous
/// `ParsableCommand.run()`, which only prints help).
func runAsync(_ command: inout any AsyncParsableCommand) async throws {
    try await command.run()
}
