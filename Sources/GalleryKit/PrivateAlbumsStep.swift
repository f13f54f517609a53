import GalleryCore
import Sealing

/// Derives each private album's key (its salt kept in the build state's
/// folder, outside OUT) and has OUT seal every file written into the album's
/// vault from then on. Runs after OUT is opened and before any media work;
/// a site without private albums does nothing here.
struct PrivateAlbumsStep: BuildStep {
    let name = "private albums"

    func run(_ context: inout BuildContext) async throws {
        guard !context.passphrases.isEmpty else { return }
        let output = try context.openOutput()
        let store = SaltStore(stateFolder: output.stateFolder)
        let albums = context.passphrases.keys.sorted()
        let passphrases = context.passphrases
        // PBKDF2 at 600,000 rounds costs every build (a no-op too) 0.08 s per album: on every core.
        let keys = parallelMap(albums, minimumCount: 2) { album in Result { () throws(SealingError) in try store.key(for: album, passphrase: passphrases[album]!) } }
        context.passphrases = [:]
        for (album, key) in zip(albums, keys) {
            let key = try key.get()
            context.albumKeys[album] = key
            output.seal(folder: key.vault.folder) { bytes, path in try key.sealFile(bytes, path: path) }
        }
    }
}
