import ArgumentParser

/// The root command.
struct Gallerygen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallerygen",
        abstract: "Generate a fast, private static photo gallery from a folder tree of photos.",
        version: "gallerygen 0.1.0",
        subcommands: [BuildCommand.self, ServeCommand.self, InitCommand.self, PeopleCommand.self, SettingsCommand.self, CodecFloorCommand.self, LooksCommand.self, EncodeProbeCommand.self],
        defaultSubcommand: nil
    )
}
