import Foundation
import Testing
import GalleryTestSupport
@testable import GalleryCore
@testable import Metadata

/// Face regions as taggers write them (MWG and Microsoft, every XMP form),
/// what is not a face, what cannot be one, and how a region follows the
/// photo's orientation.
@Suite struct FaceRegionTests {
    static func packet(_ body: String) -> [UInt8] {
        Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            \(body)
            </rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    static let mwgNamespaces = #"xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#""#

    /// MWG regions, one written as exiftool writes them (elements in a
    /// parseType="Resource" li), one as digiKam does (attributes of a
    /// Description), one with its Area as a nested Description.
    static let mwg = packet("""
        <rdf:Description rdf:about="" \(mwgNamespaces) xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#">
          <mwg-rs:Regions rdf:parseType="Resource">
            <mwg-rs:AppliedToDimensions stDim:w="4000" stDim:h="3000" stDim:unit="pixel"/>
            <mwg-rs:RegionList><rdf:Bag>
              <rdf:li rdf:parseType="Resource">
                <mwg-rs:Area rdf:parseType="Resource"><stArea:x>0.25</stArea:x><stArea:y>0.5</stArea:y><stArea:w>0.1</stArea:w><stArea:h>0.2</stArea:h><stArea:unit>normalized</stArea:unit></mwg-rs:Area>
                <mwg-rs:Name>  Marie   Curie </mwg-rs:Name><mwg-rs:Type>Face</mwg-rs:Type>
              </rdf:li>
              <rdf:li><rdf:Description mwg-rs:Name="Pierre Curie" mwg-rs:Type="Face">
                <mwg-rs:Area stArea:x="0.75" stArea:y="0.5" stArea:w="0.1" stArea:h="0.2" stArea:unit="normalized"/>
              </rdf:Description></rdf:li>
              <rdf:li><rdf:Description mwg-rs:Type="Face" mwg-rs:Name="Ir\u{0065}\u{0300}ne Joliot-Curie">
                <mwg-rs:Area><rdf:Description stArea:x="0.5" stArea:y="0.3" stArea:w="0.05" stArea:h="0.1" stArea:unit="normalized"/></mwg-rs:Area>
              </rdf:Description></rdf:li>
              <rdf:li><rdf:Description mwg-rs:Name="Rex" mwg-rs:Type="Pet"><mwg-rs:Area stArea:x="0.5" stArea:y="0.9" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
              <rdf:li><rdf:Description mwg-rs:Type="Focus"><mwg-rs:Area stArea:x="0.5" stArea:y="0.5" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
              <rdf:li><rdf:Description mwg-rs:Type="Face"><mwg-rs:Area stArea:x="0.1" stArea:y="0.1" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
            </rdf:Bag></mwg-rs:RegionList>
          </mwg-rs:Regions>
        </rdf:Description>
        """)

    @Test func mwgRegionsInEveryFormAreRead() {
        let words = WordsReader.xmp(Self.mwg)
        #expect(words.faces.map(\.name) == ["Marie Curie", "Pierre Curie", "Irène Joliot-Curie"],
                "trimmed, spaces folded, NFC; pets, focus areas and unnamed faces are nobody")
        #expect(words.faces[0].area == NormalizedRect(x: 0.2, y: 0.4, width: 0.1, height: 0.2), "x/y are the centre")
        #expect(abs(words.faces[2].area.x - 0.475) < 1e-9 && abs(words.faces[2].area.height - 0.1) < 1e-9)
        #expect(words.people == ["Marie Curie", "Pierre Curie", "Irène Joliot-Curie"])
        #expect(words.droppedRegions.total == 0)
    }

    @Test func microsoftRegionsAreReadWhereMWGIsAbsent() {
        let microsoft = """
            <rdf:Description rdf:about="" xmlns:MP="http://ns.microsoft.com/photo/1.2/" xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#" xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#">
              <MP:RegionInfo rdf:parseType="Resource"><MPRI:Regions><rdf:Bag>
                <rdf:li MPReg:Rectangle="0.1, 0.2, 0.3, 0.4" MPReg:PersonDisplayName="Ada Lovelace"/>
                <rdf:li rdf:parseType="Resource"><MPReg:PersonDisplayName>Alan Turing</MPReg:PersonDisplayName></rdf:li>
              </rdf:Bag></MPRI:Regions></MP:RegionInfo>
            </rdf:Description>
            """
        let alone = WordsReader.xmp(Self.packet(microsoft))
        #expect(alone.faces == [FaceRegion(name: "Ada Lovelace", area: NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4))])
        #expect(alone.people == ["Ada Lovelace", "Alan Turing"], "a name without a rectangle is still someone in the photo")
        // digiKam writes both: MWG's boxes are the ones used.
        let body = String(decoding: Self.mwg, as: UTF8.self)
        let both = WordsReader.xmp(Array(body.replacingOccurrences(of: "</rdf:RDF>", with: microsoft + "</rdf:RDF>").utf8))
        #expect(both.faces.map(\.name) == ["Marie Curie", "Pierre Curie", "Irène Joliot-Curie"])
    }

    static func region(_ name: String, x: String, y: String, w: String, h: String) -> String {
        #"<rdf:li><rdf:Description mwg-rs:Name="\#(name)" mwg-rs:Type="Face"><mwg-rs:Area stArea:x="\#(x)" stArea:y="\#(y)" stArea:w="\#(w)" stArea:h="\#(h)" stArea:unit="normalized"/></rdf:Description></rdf:li>"#
    }

    static func regions(_ items: [String]) -> [UInt8] {
        packet(#"<rdf:Description \#(mwgNamespaces)><mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag>"#
               + items.joined() + "</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions></rdf:Description>")
    }

    @Test func regionsThatCannotBeFacesAreDroppedAndCounted() {
        let words = WordsReader.xmp(Self.regions([
            Self.region("Good", x: "0.5", y: "0.5", w: "0.2", h: "0.2"),
            Self.region("NaN", x: "NaN", y: "0.5", w: "0.2", h: "0.2"),
            Self.region("Words", x: "left", y: "0.5", w: "0.2", h: "0.2"),
            Self.region("Flat", x: "0.5", y: "0.5", w: "0", h: "0.2"),
            Self.region("Negative", x: "0.5", y: "0.5", w: "0.2", h: "-0.2"),
            Self.region("Outside", x: "1.6", y: "0.5", w: "0.2", h: "0.2"),
            Self.region("Huge", x: "0.5", y: "0.5", w: "3", h: "0.2"),
            Self.region(String(repeating: "a", count: 201), x: "0.5", y: "0.5", w: "0.2", h: "0.2"),
            Self.region("Bell&#x7;Ringer", x: "0.5", y: "0.5", w: "0.2", h: "0.2"),
            Self.region("Edge", x: "0.98", y: "0.5", w: "0.06", h: "0.2"),
            Self.region("Beyond", x: "1.02", y: "0.5", w: "0.04", h: "0.2"),
        ]))
        #expect(words.faces.map(\.name) == ["Good", "Edge"], "a box past the edge that clips to nothing is dropped")
        #expect(words.faces.allSatisfy { $0.area.flaw == nil }, "every kept box reads back from the state")
        #expect(words.faces[1].area.x + words.faces[1].area.width <= 1, "a box a little past the edge is clipped to it")
        #expect(words.droppedRegions.counts == [.notANumber: 2, .emptySize: 3, .outsideImage: 2, .badName: 2])
        #expect(words.droppedRegions.summary == "2 not a number, 3 zero or negative size, 2 outside the image, 2 a name too long or with control characters")
        #expect(!words.people.contains { $0.contains("Bell") || $0.count > 200 })
        let many = WordsReader.xmp(Self.regions((0..<250).map { Self.region("P\($0)", x: "0.5", y: "0.5", w: "0.1", h: "0.1") }))
        #expect(many.faces.count == FaceRegion.maximumPerPhoto)
        #expect(many.droppedRegions.counts == [.tooMany: 50])
    }

    @Test func peopleKeywordsArePeopleNotTags() {
        let words = WordsReader.xmp(Self.packet("""
            <rdf:Description rdf:about="" \(Self.mwgNamespaces) xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmlns:digiKam="http://www.digikam.org/ns/1.0/">
              <dc:subject><rdf:Bag><rdf:li>marie curie</rdf:li><rdf:li>Paris</rdf:li><rdf:li>Bob</rdf:li><rdf:li>Eve</rdf:li></rdf:Bag></dc:subject>
              <lr:hierarchicalSubject><rdf:Bag><rdf:li>People|Family|Bob</rdf:li><rdf:li>Places|Paris</rdf:li></rdf:Bag></lr:hierarchicalSubject>
              <digiKam:TagsList><rdf:Seq><rdf:li>People/Eve</rdf:li><rdf:li>Events/Wedding</rdf:li></rdf:Seq></digiKam:TagsList>
              <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag>
                \(Self.region("Marie Curie", x: "0.5", y: "0.5", w: "0.2", h: "0.2"))
              </rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>
            </rdf:Description>
            """))
        #expect(words.people == ["Marie Curie", "Bob", "Eve"], "a face's name, and the People branch of both hierarchies")
        #expect(words.keywords == ["Paris", "Wedding"], "a keyword that names a person is the person")
    }

    @Test func sidecarFacesReplaceTheFilesWhole() {
        let file = WordsReader.xmp(Self.regions([Self.region("A", x: "0.2", y: "0.2", w: "0.1", h: "0.1")]))
        let sidecar = WordsReader.xmp(Self.regions([Self.region("a", x: "0.21", y: "0.2", w: "0.1", h: "0.1"),
                                                    Self.region("B", x: "0.7", y: "0.2", w: "0.1", h: "0.1")]))
        let merged = sidecar.filled(from: file)
        #expect(merged.faces.map(\.name) == ["a", "B"], "one set of faces, not the same face twice")
        #expect(merged.people == ["a", "B"], "names differing in case are one person")
        #expect(PhotoWords().filled(from: file).faces.map(\.name) == ["A"])
    }

    /// A region in the stored frame lands where the upright picture shows
    /// the same pixels: checked against `Orientation.sourcePixel`, the map
    /// the renditions turn pixels by, for every orientation.
    @Test func regionsFollowEveryOrientation() {
        let stored = PixelSize(width: 40, height: 30)
        let box = NormalizedRect(x: 0.1, y: 0.2, width: 0.25, height: 0.3)
        let storedPixels = box.pixels(in: stored)
        for orientation in Orientation.allCases {
            let upright = box.upright(orientation)
            let shown = orientation.displaySize(ofStored: stored)
            let pixels = upright.pixels(in: shown)
            // Every pixel inside the upright box comes from inside the stored box, and their counts agree.
            var inside = 0
            for y in pixels.y..<(pixels.y + pixels.height) {
                for x in pixels.x..<(pixels.x + pixels.width) {
                    let source = orientation.sourcePixel(x: x, y: y, stored: stored)
                    if (storedPixels.x..<(storedPixels.x + storedPixels.width)).contains(source.x),
                       (storedPixels.y..<(storedPixels.y + storedPixels.height)).contains(source.y) { inside += 1 }
                }
            }
            #expect(inside == storedPixels.width * storedPixels.height, "\(orientation)")
            #expect(pixels.width * pixels.height == storedPixels.width * storedPixels.height, "\(orientation)")
        }
    }

    @Test func anAvatarSquareStaysInsideThePicture() {
        let size = PixelSize(width: 400, height: 300)
        let corner = NormalizedRect(x: 0.9, y: 0.0, width: 0.1, height: 0.1).avatarSquare(in: size)
        #expect(corner.x + corner.width <= 1 + 1e-9 && corner.y >= 0)
        #expect(abs(corner.width * 400 - corner.height * 300) < 1e-6, "square in pixels")
        let huge = NormalizedRect(x: 0, y: 0, width: 1, height: 1).avatarSquare(in: size)
        #expect(abs(huge.height - 1) < 1e-9, "never larger than the picture's short side")
    }
}
