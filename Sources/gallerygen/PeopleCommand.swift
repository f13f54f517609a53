import ArgumentParser
import Configuration
import Foundation
import GalleryCore
import GalleryKit

/// `gallerygen people SOURCE -o OUT`: the groups of faces the last build
/// with `faces: auto` found, largest first, with photos to name them by.
struct PeopleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "List the groups of faces found (faces: auto), largest first, with photos to name them by in people.yml.",
        discussion: """
        Reads the build state the last build left (beside OUT, or where state: says); nothing is found again. \
        Name a group in SOURCE/people.yml by one of its photos (Grandma: 2019/IMG_0012.jpg, #2 for the second largest face), \
        then build: the person's page appears.
        """
    )

    @Argument(help: "The folder of photos.")
    var source: String

    @Option(name: [.short, .long], help: "The site folder the build wrote (its state is beside it); not needed when gallery.yml sets state:.")
    var output: String?

    @Option(help: "Settings file (default: SOURCE/gallery.yml when it exists).")
    var config: String?

    @Flag(help: "Group every face afresh (names in people.yml still name the groups their photos fall in).")
    var regroup = false

    @Option(help: "Photos listed for each group.")
    var examples = 4

    @Flag(help: "Print every group with all its faces and their boxes as JSON (for scripts).")
    var json = false

    func run() throws {
        do {
            let sourceURL = URL(fileURLWithPath: source)
            let resolved = try BuildConfiguration.resolve(source: sourceURL, output: URL(fileURLWithPath: output ?? "."),
                                                          configFile: config.map { URL(fileURLWithPath: $0) })
            guard output != nil || !resolved.settings.values.state.isEmpty else {
                throw ValidationFailure(message: "say which site's faces to list: gallerygen people \(source) -o OUT")
            }
            let stateFolder = resolved.settings.stateFolder
            if regroup { try FaceGroupsOverview.regroup(stateFolder: stateFolder) }
            let people = try PeopleFile.load(source: sourceURL)
            guard let overview = FaceGroupsOverview.load(stateFolder: stateFolder, people: people) else {
                throw ValidationFailure(message: "no faces found yet in \(stateFolder.path): set faces: auto in gallery.yml and build first")
            }
            print(json ? overview.json : overview.text(examples: max(1, examples)))
        } catch let error as CustomStringConvertible & Error {
            throw ValidationFailure(message: error.description)
        }
    }
}
