import Foundation
import PackagePlugin

/// Turns the package's `Templates/`, `Themes/` and `Locales/` folders into one generated
/// Swift file so the default theme ships inside the executable.
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let folders = ["Templates", "Themes", "Locales"].map { root.appending(path: $0) }
        var inputs: [URL] = []
        for folder in folders {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                inputs.append(url)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding templates and themes",
                executable: try context.tool(named: "EmbedAssetsTool").url,
                arguments: [output.path(percentEncoded: false), root.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
