/// The commented `gallery.yml` that `gallerygen init` writes. Every value shown
/// is the default, so the file documents the settings and changes nothing
/// until edited. (A test parses it, so it always stays valid.)
public enum ConfigTemplate {
    /// The file's text.
    public static let text = """
    # gallery.yml: settings for `gallerygen build`. Put it in the root of your
    # photo folder (or pass --config FILE). Command-line flags override it.
    # Unknown keys and bad values are errors that name the key and the line.

    # The site's name, shown in every page header.
    title: Photos

    # Theme: a built-in one (default, slate) or a folder with templates/ and
    # static/ that overrides only what it needs (relative to this file).
    theme: default

    # Rendition encoding: webp (about half the bytes) or jpeg.
    format: webp
    # Encoder quality, 1-100 (default: 85).
    # quality: 85

    # Bounding boxes; each one is a srcset candidate, so browsers pick the
    # right size for the screen and its pixel density.
    thumbnail_sizes: [280x210, 560x420]
    preview_sizes: [800x600, 1600x1200, 2560x1920]

    # Photos processed at once (default: every core).
    # jobs: 4

    # Photos larger than this are refused before decoding (decompression bombs).
    max_megapixels: 100

    # Animated GIF/WebP are re-encoded frame by frame at every size. One with
    # more frames × pixels than this (in megapixels) is published as a still.
    max_animation_megapixels: 400

    # At most this many photos on one album or moments page.
    photos_per_page: 120

    # The moments timeline: every photo across albums, in sections.
    moments:
      group_by: day     # day | month | gap (new section after a pause)
      gap_hours: 6      # the pause, with group_by: gap
      order: newest     # newest | oldest first

    # Photo order inside albums (an album.yml can override it per album).
    album_sort: date        # date | name
    album_order: ascending  # ascending | descending

    # The justified grid: space between thumbnails and rows, and row height (CSS px).
    spacing: 4
    row_height: 210

    # Keep raw HTML in album descriptions (album.yml). Off: it shows as text.
    allow_html: false

    # Follow symbolic links in the photo folder (never to outside it; loops end).
    follow_symlinks: false

    # Publish the original files for download. Their GPS, XMP and IPTC
    # (where they were taken) are removed losslessly unless keep_location is on.
    publish_originals: false
    keep_location: false

    """
}
