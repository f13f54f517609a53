import GalleryCore
import Planning

/// A private album's page as a sealing leaves it: the encrypted page (Base64)
/// and what the browser needs to derive its key.
public struct SealedPage: Sendable {
    /// The page's HTML, encrypted, in Base64.
    public var payload: String
    /// The key's salt, in Base64.
    public var salt: String
    /// PBKDF2 rounds.
    public var iterations: Int

    public init(payload: String, salt: String, iterations: Int) {
        self.payload = payload
        self.salt = salt
        self.iterations = iterations
    }
}

/// Seals a rendered page of a private album (`html`, published at `path`);
/// nil when it cannot be encrypted.
public typealias PageSealer = @Sendable (_ html: String, _ path: String) -> SealedPage?

/// The page a private album's page is published as: the site's header and
/// footer, a passphrase form, and the real page encrypted, which
/// `static/sealed.js` opens in place. Nothing of the album is in plain: the
/// title is "Private album", there are no link-preview tags, no canonical
/// link, no preloads and no links to its other pages.
struct LockedPageBuilder: PageBuilding {
    let inputs: PageInputs

    func lockedPage(_ path: String, sealed: SealedPage) -> LockedPageModel {
        var chrome = chrome(path, title: strings.text("album.private"), section: "albums")
        chrome.canonicalURL = nil
        return LockedPageModel(chrome: chrome, payload: sealed.payload, salt: sealed.salt, iterations: sealed.iterations,
                               sealedScript: URLPath.relative(from: path, to: "static/sealed.js"))
    }

    func render(_ path: String, sealed: SealedPage) throws(ThemeError) -> String {
        try theme.render("locked", lockedPage(path, sealed: sealed))
    }
}

/// A private album's locked page.
public struct LockedPageModel: Sendable, Encodable {
    public var chrome: PageChrome
    /// The encrypted page, Base64.
    public var payload: String
    /// PBKDF2's salt, Base64, and its rounds.
    public var salt: String
    public var iterations: Int
    /// `static/sealed.js`, which asks for the passphrase and opens the page.
    public var sealedScript: String
}
