import ArgumentParser
import Foundation
import GalleryCore
import GalleryKit

MemoryTuning.apply()
Interruption.install()

// A mistyped command (`gallerygen biuld ~/Pictures -o site`) is named as
// one, not taken for the command's arguments ("Unknown option '-o'").
if let typed = CommandLine.arguments.dropFirst().first, !typed.hasPrefix("-"), typed != "help",
   !Gallerygen.configuration.subcommands.contains(where: { $0.configuration.commandName == typed }) {
    let commands = Gallerygen.configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap { $0.configuration.commandName }
    let hint = NearestName.suggestion(for: typed, among: commands).map { "did you mean '\($0)'?" }
        ?? "the commands are \(commands.joined(separator: ", ")) (gallerygen --help)"
    FileHandle.standardError.write(Data("gallerygen: error: unknown command '\(DisplayText.oneLine(typed))'; \(hint)\n".utf8))
    exit(1)
}

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
