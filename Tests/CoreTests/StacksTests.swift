import Foundation
import GalleryCore
import GalleryTestSupport
@testable import Planning
import Testing

/// The stack rules on one album's items: what stacks, what must not, the
/// cover, and the layout (a stack's items right after its cover).
struct StacksTests {
    static let both = StackRules(bursts: true, edits: true)

    static func photo(_ name: String, _ exif: String? = "2024:05:01 10:00:00", camera: String? = "ILCE-7", rating: Int? = nil,
                      album: String = "Trip") -> MediaItem {
        var item = samplePhoto(album + "/" + name, exif)
        item.metadata.camera.make = camera.map { _ in "SONY" }
        item.metadata.camera.model = camera
        if let rating { item.metadata.words.rating = rating }
        return item
    }

    /// The stacks of `items` as file-name lists, cover first; and the tiles' names in order.
    static func stacks(_ items: [MediaItem], rules: StackRules = both, choices: [String: StackChoice] = [:]) -> (stacks: [[String]], tiles: [String]) {
        let arranged = Stacks.arrange(items, rules: rules, choices: choices)
        #expect(arranged.count == items.count)
        #expect(Set(arranged.map(\.source.fileName)) == Set(items.map(\.source.fileName)))
        var stacks: [[String]] = [], tiles: [String] = []
        for (i, item) in arranged.enumerated() {
            switch item.stack {
            case .single: tiles.append(item.source.fileName)
            case .cover(let count):
                tiles.append(item.source.fileName)
                stacks.append(arranged[i..<i + count].map(\.source.fileName))
                for (offset, member) in arranged[i + 1..<i + count].enumerated() { #expect(member.stack == .member(offset: offset + 1)) }
            case .member: break
            }
        }
        return (stacks, tiles)
    }

    @Test func cameraBurstNamesStackEachBurstApartWithTheCamerasCover() {
        let items = [
            // Huawei / Nexus / Pixel: one instant, serials before it.
            Self.photo("00001IMG_00001_BURST20171111030039.jpg"), Self.photo("00002IMG_00002_BURST20171111030039_COVER.jpg"),
            Self.photo("00003IMG_00003_BURST20171111030039.jpg"),
            // Another burst a second later: its own stack.
            Self.photo("00001IMG_00001_BURST20171111030040.jpg"), Self.photo("00002IMG_00002_BURST20171111030040.jpg"),
            // Motorola / Google Camera sequences.
            Self.photo("IMG_20180914_094602055_BURST000_COVER.jpg"), Self.photo("IMG_20180914_094602055_BURST001.jpg"),
            // Samsung.
            Self.photo("20231207_101605_001.jpg"), Self.photo("20231207_101605_002.jpg"), Self.photo("20231207_101605_003.jpg"),
            // Sony, predictive capture too.
            Self.photo("DSC_0052_BURST20230709220904977_COVER.JPG"), Self.photo("DSC_0053_BURST20230709220904977.JPG"),
            Self.photo("DSCPDC_0000_BURST20180224164317669.JPG"), Self.photo("DSCPDC_0001_BURST20180224164317669.JPG"),
            Self.photo("IMG_0001.jpg", "2024:05:01 11:00:00"),
        ]
        let (stacks, tiles) = Self.stacks(items)
        #expect(stacks == [
            ["00002IMG_00002_BURST20171111030039_COVER.jpg", "00001IMG_00001_BURST20171111030039.jpg", "00003IMG_00003_BURST20171111030039.jpg"],
            ["00001IMG_00001_BURST20171111030040.jpg", "00002IMG_00002_BURST20171111030040.jpg"],
            ["IMG_20180914_094602055_BURST000_COVER.jpg", "IMG_20180914_094602055_BURST001.jpg"],
            ["20231207_101605_001.jpg", "20231207_101605_002.jpg", "20231207_101605_003.jpg"],
            ["DSC_0052_BURST20230709220904977_COVER.JPG", "DSC_0053_BURST20230709220904977.JPG"],
            ["DSCPDC_0000_BURST20180224164317669.JPG", "DSCPDC_0001_BURST20180224164317669.JPG"],
        ])
        #expect(tiles.count == 7)
        // Off: nothing stacks by name.
        #expect(Self.stacks(items, rules: StackRules(bursts: false, edits: true)).stacks.isEmpty)
    }

    @Test func aNumberedSequenceStacksWithinTheSecondNotAcrossAPause() {
        let items = [
            // Four frames a second for two seconds: one burst across the second's turn.
            Self.photo("DSC01001.ARW", "2024:05:01 10:00:00"), Self.photo("DSC01002.ARW", "2024:05:01 10:00:00"),
            Self.photo("DSC01003.ARW", "2024:05:01 10:00:01"), Self.photo("DSC01004.ARW", "2024:05:01 10:00:01"),
            // Two different scenes a second apart, numbered in sequence: apart.
            Self.photo("DSC01010.ARW", "2024:05:01 10:05:00"), Self.photo("DSC01011.ARW", "2024:05:01 10:05:01"),
            // A frame right after a burst but a second later, alone in its second: apart.
            Self.photo("DSC01020.ARW", "2024:05:01 10:07:00"), Self.photo("DSC01021.ARW", "2024:05:01 10:07:00"),
            Self.photo("DSC01022.ARW", "2024:05:01 10:07:01"),
            // Same second, numbers not in sequence: apart.
            Self.photo("DSC01030.ARW", "2024:05:01 10:09:00"), Self.photo("DSC01032.ARW", "2024:05:01 10:09:00"),
            // Same second, in sequence, two cameras: apart.
            Self.photo("DSC01040.ARW", "2024:05:01 10:11:00"), Self.photo("DSC01041.ARW", "2024:05:01 10:11:00", camera: "ILCE-9"),
            // No camera, or only a file's time: no sequence to trust.
            Self.photo("IMG_2001.jpg", "2024:05:01 10:13:00", camera: nil), Self.photo("IMG_2002.jpg", "2024:05:01 10:13:00", camera: nil),
            Self.photo("IMG_3001.jpg", nil), Self.photo("IMG_3002.jpg", nil),
        ]
        let (stacks, _) = Self.stacks(items)
        #expect(stacks == [["DSC01001.ARW", "DSC01002.ARW", "DSC01003.ARW", "DSC01004.ARW"], ["DSC01020.ARW", "DSC01021.ARW"]])
    }

    @Test func anEditStacksWithItsOriginalAndIsTheCover() {
        let items = [
            Self.photo("IMG_1234.HEIC"), Self.photo("IMG_E1234.JPG"),
            Self.photo("IMG_2000.jpg"), Self.photo("IMG_2000-edited.jpg"),
            Self.photo("IMG_2100.jpg"), Self.photo("IMG_2100-bearbeitet.jpg"),
            Self.photo("IMG_3000.jpg"), Self.photo("IMG_3000 (edited).jpg"),
            Self.photo("DSC_4000.NEF"), Self.photo("DSC_4000-Edit.tif"), Self.photo("DSC_4000-Edit-2.tif"),
            // An edit without its original here, and a name that only looks like one.
            Self.photo("IMG_E9999.JPG"), Self.photo("my-edit.jpg"), Self.photo("IMG_EXTRA.jpg"),
        ]
        let (stacks, tiles) = Self.stacks(items, rules: StackRules(bursts: false, edits: true))
        #expect(stacks == [
            ["IMG_E1234.JPG", "IMG_1234.HEIC"], ["IMG_2000-edited.jpg", "IMG_2000.jpg"], ["IMG_2100-bearbeitet.jpg", "IMG_2100.jpg"],
            ["IMG_3000 (edited).jpg", "IMG_3000.jpg"], ["DSC_4000-Edit-2.tif", "DSC_4000.NEF", "DSC_4000-Edit.tif"],
        ])
        #expect(tiles.count == 8)
        #expect(Self.stacks(items, rules: StackRules(bursts: true, edits: false)).stacks.isEmpty)
    }

    @Test func theCoverIsChosenThenPickedThenRatedThenFirst() {
        let burst = ["x_BURST001.jpg", "x_BURST002.jpg", "x_BURST003.jpg"]
        #expect(Self.stacks(burst.map { Self.photo($0) }).stacks == [burst])
        let rated = [Self.photo(burst[0]), Self.photo(burst[1], rating: 4), Self.photo(burst[2], rating: 2)]
        #expect(Self.stacks(rated).stacks == [[burst[1], burst[0], burst[2]]])
        // album.yml's choice wins; `alone` keeps one out.
        #expect(Self.stacks(rated, choices: [burst[2]: .cover]).stacks == [[burst[2], burst[0], burst[1]]])
        #expect(Self.stacks(rated, choices: [burst[1]: .alone]).stacks == [[burst[2], burst[0]]])
        #expect(Self.stacks(rated, choices: [burst[1]: .alone, burst[2]: .alone]).stacks.isEmpty)
    }

    @Test func aStackStaysWhereItsFirstItemIsAndOnlyAnAlbumsOwnItemsStack() {
        let items = [Self.photo("a.jpg"), Self.photo("x_BURST001.jpg"), Self.photo("b.jpg"), Self.photo("x_BURST002_COVER.jpg"), Self.photo("c.jpg")]
        #expect(Self.stacks(items).tiles == ["a.jpg", "x_BURST002_COVER.jpg", "b.jpg", "c.jpg"])
        // Listed from another folder (an iCloud album's): never stacked here.
        let listed = Stacks.arrange(items, rules: Self.both, isHome: { $0.source.fileName != "x_BURST001.jpg" })
        #expect(listed.allSatisfy { $0.stack == .single })
    }

    @Test func oneBurstsNamesInTwoAlbumsMakeTwoStacksAndAPrivateAlbumsOwn() {
        let names = ["IMG_20240501_100000_BURST001.jpg", "IMG_20240501_100000_BURST002.jpg"]
        let photos = names.map { Self.photo($0, album: "Public") } + names.map { Self.photo($0, album: "Secret") }
        let gallery = Gallery.assemble(title: "T", photos: photos, options: Settings())
        for album in ["Public", "Secret"] {
            let items = gallery.albums[AlbumPath(components: [album])]!.photos
            #expect(items.map(\.stack) == [.cover(count: 2), .member(offset: 1)], "\(album)")
            #expect(items.allSatisfy { $0.source.albumPath == AlbumPath(components: [album]) })
        }
        #expect(gallery.stackCounts.stacks == 2 && gallery.stackCounts.items == 4)
        #expect(gallery.timelinePhotos.count == 2)
    }

    @Test func aBurstOfFiveThousandFramesIsOneStackAndItsStripAWindow() {
        let frames = (0..<5_000).map { Self.photo(String(format: "IMG_20240501_100000_BURST%04d.jpg", $0)) }
        let arranged = Stacks.arrange(frames.reversed(), rules: Self.both)
        #expect(arranged.first?.stack == .cover(count: 5_000))
        let album = Album(path: AlbumPath(components: ["Trip"]), title: "Trip", photos: arranged)
        #expect(album.stackRange(at: 2_500) == 0..<5_000)
        #expect(album.stackStrip(at: 2_500).count == Album.stripLength)
        #expect(album.stackStrip(at: 2_500).contains(2_500))
        #expect(album.stackStrip(at: 4_999) == 5_000 - Album.stripLength..<5_000)
        #expect(album.nextTile(after: 2_500) == nil && album.previousTile(before: 2_500) == nil)
        #expect(PageSplitter.pages(of: arranged, budget: 3) == [0..<5_000])
    }

    @Test func pagesHoldTilesAndNeverSplitAStack() {
        let items = Stacks.arrange([Self.photo("a.jpg"), Self.photo("x_BURST001.jpg"), Self.photo("x_BURST002.jpg"), Self.photo("x_BURST003.jpg"),
                                    Self.photo("b.jpg"), Self.photo("c.jpg")], rules: Self.both)
        #expect(PageSplitter.pages(of: items, budget: 2) == [0..<4, 4..<6])
        #expect(PageSplitter.pages(of: items, budget: 3) == [0..<5, 5..<6])
        let album = Album(path: AlbumPath(components: ["Trip"]), title: "Trip", photos: items)
        #expect(album.nextTile(after: 0) == 1 && album.nextTile(after: 2) == 4 && album.previousTile(before: 3) == 0)
        #expect(album.previousTile(before: 4) == 1 && album.stackStrip(at: 0).isEmpty)
        var summary = ItemSummary(items)
        #expect(summary.items == 6 && summary.stacked == 2)
        summary.add(ItemSummary(items))
        #expect(summary.stacked == 4)
    }

    @Test func nearDuplicatesStackWithinTheWindowAndTheSharpestIsTheCover() {
        func shot(_ name: String, _ time: String, hash: UInt64?, sharpness: UInt32 = 100, camera: String = "ILCE-7") -> MediaItem {
            var item = Self.photo(name, "2024:05:01 " + time, camera: camera)
            item.looks = hash.map { PictureLooks(hash: $0, sharpness: sharpness) }
            return item
        }
        let alike: UInt64 = 0xF0F0_F0F0_0F0F_0F0F, near = alike ^ 0b1011, far = ~alike
        let items = [
            // Three tries at one group photo, two seconds apart: one stack, the sharpest its cover.
            shot("a1.jpg", "10:00:00", hash: alike, sharpness: 80), shot("a2.jpg", "10:00:02", hash: near, sharpness: 300),
            shot("a3.jpg", "10:00:04", hash: alike, sharpness: 120),
            // Another scene a second later: apart.
            shot("b.jpg", "10:00:05", hash: far),
            // Alike but a minute later, or by another camera, or never measured: apart.
            shot("c.jpg", "10:01:05", hash: alike), shot("d.jpg", "10:00:03", hash: alike, camera: "ILCE-9"),
            shot("e.jpg", "10:00:01", hash: nil),
        ]
        let rules = StackRules(bursts: true, edits: true, nearDuplicateSeconds: 2)
        #expect(Self.stacks(items, rules: rules).stacks == [["a2.jpg", "a1.jpg", "a3.jpg"]])
        #expect(Self.stacks(items, rules: StackRules(bursts: true, edits: true, nearDuplicateSeconds: 0)).stacks.isEmpty)
        #expect(Self.stacks(items, rules: Self.both).stacks.isEmpty)
        // Two flat pictures (no bit set) are not alike, whatever their colours.
        #expect(Self.stacks([shot("f1.jpg", "11:00:00", hash: 0), shot("f2.jpg", "11:00:00", hash: 0)], rules: rules).stacks.isEmpty)
        // A rating still wins over sharpness.
        var rated = items
        rated[2].metadata.words.rating = 3
        #expect(Self.stacks(rated, rules: rules).stacks.first?.first == "a3.jpg")
    }

    @Test func aCamerasBurstIdentifierStacksOneCamerasFramesWithinAMinute() {
        func frame(_ name: String, _ time: String?, burst: String?, camera: String = "iPhone 15") -> MediaItem {
            var item = Self.photo(name, time.map { "2024:05:01 " + $0 }, camera: camera)
            item.metadata.burstIdentifier = burst
            return item
        }
        let items = [
            frame("IMG_0501.JPG", "10:00:00", burst: "B1"), frame("IMG_0505.JPG", "10:00:01", burst: "B1"),
            frame("IMG_0509.JPG", "10:00:40", burst: "B1"),
            // The same identifier: minutes later, by another camera, or with no EXIF time: not believed.
            frame("IMG_0600.JPG", "10:20:00", burst: "B1"), frame("IMG_0601.JPG", "10:00:02", burst: "B1", camera: "iPhone 12"),
            frame("IMG_0602.JPG", nil, burst: "B1"),
        ]
        #expect(Self.stacks(items).stacks == [["IMG_0501.JPG", "IMG_0505.JPG", "IMG_0509.JPG"]])
        #expect(Self.stacks(items, rules: StackRules(bursts: false, edits: true)).stacks.isEmpty)
    }

    @Test func editNamesSayTheirOriginal() {
        #expect(EditName.originalStem(of: "IMG_E1234.JPG") == "img_1234")
        #expect(EditName.originalStem(of: "IMG_E12345.JPG") == "img_12345")
        #expect(EditName.originalStem(of: "IMG_E12.JPG") == nil)
        #expect(EditName.originalStem(of: "PXL_20240101-edited.jpg") == "pxl_20240101")
        #expect(EditName.originalStem(of: "IMG_1-modifié.jpg") == "img_1")
        #expect(EditName.originalStem(of: "IMG_1 (Edited).jpg") == "img_1")
        #expect(EditName.originalStem(of: "DSC_1-Edit-12.tif") == "dsc_1")
        #expect(EditName.originalStem(of: "-edited.jpg") == nil)
        #expect(EditName.originalStem(of: "credit.jpg") == nil)
        #expect(EditName.originalStem(of: "IMG_1-2.jpg") == nil)
        // The quick test passes over no name EditName reads as an edit's.
        for name in ["IMG_E1234.JPG", "Img_e1234.jpg", "a-edited.jpg", "a (edited).jpg", "b-Edit-2.tif", "c-modifié.jpg"] {
            #expect(Stacks.mayBeEditName(name), "\(name)")
        }
        #expect(!Stacks.mayBeEditName("IMG_1234.jpg") && !Stacks.mayBeEditName("DSC_0001.NEF"))
    }
}
