import ArgumentParser
import Configuration

/// `gallerygen settings`: every setting of gallery.yml with its default, the
/// flag that sets it and what it accepts (the README's table is its `--markdown` output).
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "List every gallery.yml setting with its default, flag and allowed values."
    )

    @Flag(help: "Print the table in Markdown (as in the README).")
    var markdown = false

    func run() {
        print(markdown ? ConfigTemplate.readmeTable : ConfigTemplate.text, terminator: "")
    }
}
