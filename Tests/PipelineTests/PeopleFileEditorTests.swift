import Configuration
import GalleryCore
import Testing

/// The review page's edits to people.yml: a new person is a line at the end,
/// a known person gets the face among their photos, in whatever form their
/// entry has, and the rest of the file stays as it was.
@Suite struct PeopleFileEditorTests {
    let face = FaceReference(path: "2019/Beach/IMG_0012.jpg", rank: 2)

    @Test func aNewPersonIsALineAtTheEnd() throws {
        let text = "# family\nMarie Curie:\n  also: [Marie Sklodowska]   # her maiden name\n"
        let edited = try PeopleFileEditor.adding(face, to: " Grandma ", in: text)
        #expect(edited == text + "Grandma: \"2019/Beach/IMG_0012.jpg#2\"\n")
        #expect(try PeopleFileEditor.adding(FaceReference(path: "a.jpg"), to: "Grandma", in: "") == "Grandma: a.jpg\n")
        // Names YAML would read otherwise are quoted.
        let odd = try PeopleFileEditor.adding(FaceReference(path: "a.jpg"), to: "No: \"quoted\" #1", in: "")
        #expect(odd == "\"No: \\\"quoted\\\" #1\": a.jpg\n")
        #expect(try PeopleFile.parse(odd).entries.first?.name == "No: \"quoted\" #1")
        #expect(try PeopleFile.parse(try PeopleFileEditor.adding(FaceReference(path: "a.jpg"), to: "yes", in: "")).entries.first?.name == "yes")
    }

    @Test func aKnownPersonGetsTheFaceAmongTheirPhotos() throws {
        // The short form becomes the long one.
        let short = try PeopleFileEditor.adding(face, to: "grandma", in: "Grandma: 2018/IMG_1.jpg\nTom: 2018/IMG_2.jpg\n")
        #expect(short == "Grandma:\n  photos: [2018/IMG_1.jpg, \"2019/Beach/IMG_0012.jpg#2\"]\nTom: 2018/IMG_2.jpg\n")
        // A photos list gains one; an entry without one gets it, indented as its other fields.
        let list = try PeopleFileEditor.adding(face, to: "Grandma", in: "Grandma:\n    photos: [a.jpg]  \n    hidden: false\n")
        #expect(try PeopleFile.parse(list).entries[0].photos == [FaceReference(path: "a.jpg"), face])
        let none = try PeopleFileEditor.adding(face, to: "Grandma", in: "Grandma:\n    also: [Nana]\n# end\n")
        #expect(none == "Grandma:\n    photos: [\"2019/Beach/IMG_0012.jpg#2\"]\n    also: [Nana]\n# end\n")
        // Another spelling of a person names that person.
        let also = try PeopleFileEditor.adding(face, to: "nana", in: "Grandma:\n  also: [Nana]\n")
        #expect(try PeopleFile.parse(also).entries.count == 1)
        #expect(try PeopleFile.parse(also).entries[0].photos == [face])
    }

    @Test func whatCannotBeEditedSafelyIsRefused() {
        // A block list of photos is not one line: said, nothing changed.
        #expect(throws: PeopleFileEditor.EditError.self) {
            try PeopleFileEditor.adding(face, to: "Grandma", in: "Grandma:\n  photos:\n    - a.jpg\n")
        }
        #expect(throws: (any Error).self) { try PeopleFileEditor.adding(face, to: "Grandma", in: "Grandma: [unclosed\n") }
        #expect(throws: PeopleFileEditor.EditError.self) { try PeopleFileEditor.adding(face, to: "  ", in: "") }
    }
}
