import Foundation
import Testing
import FamilyTreeFiles
import TestSupport

/// Every kind of family file, told apart by name and first bytes (`FamilyTreeFiles`).
@Suite struct FamilyFileTests {
    @Test func kindsAreToldApartByNameAndContent() {
        #expect(FamilyFile.kind(path: "a.json", bytes: Array("{}".utf8)) == .treeJSON)
        #expect(FamilyFile.kind(path: "-", bytes: Array("0 HEAD\n".utf8)) == .gedcom)
        #expect(FamilyFile.kind(path: "x.GED", bytes: []) == .gedcom)
        #expect(FamilyFile.kind(path: "-", bytes: [0x50, 0x4B, 0x03, 0x04]) == .gedcom)
        #expect(FamilyFile.kind(path: "-", bytes: Array("\r\nbegin:vcard\r\n".utf8)) == .vCard)
        #expect(FamilyFile.kind(path: "c.vcf", bytes: []) == .vCard)
    }

    /// A name's extension and folder are read from the name alone, as Foundation's `URL` reads
    /// them from a path it has made absolute (it also asks the disk, and its first use is slow).
    @Test func aFileNameIsReadAsURLReadsIt() {
        let names = [
            "a.svg", "x/a.SVG", ".svg", "a.", "a.b.dot", "dir.d/file", "tree.svg/", "a b.s vg", "/", "-", "~/t.pdf",
            "a..svg", "/tmp/x.tar.gz", "dir/.hidden", "dir//a.json", "a.svg?x", "Ünïcødé.GED", "/a.vcf",
        ]
        for name in names {
            let url = URL(fileURLWithPath: name)
            #expect(String(FileName.pathExtension(name)) == url.pathExtension, "\(name)")
            #expect(String(FileName.lastComponent(name)) == url.lastPathComponent, "\(name)")
        }
        #expect(FileName.folder(of: "photos/ada.jpg") == "photos")
        #expect(FileName.folder(of: "/ada.jpg") == "/")
        #expect(FileName.folder(of: "tree.json") == ".")
        #expect(FileName.folder(of: "/home/ann/family/") == "/home/ann")
    }

    @Test func eachKindOpensAsADocument() throws {
        let ged = try FamilyFile.document(Array("0 HEAD\n0 @I1@ INDI\n1 NAME Ann /Berg/\n0 TRLR\n".utf8), path: "-", name: "<stdin>")
        #expect(ged.kind == .gedcom && ged.document.members.map(\.firstName) == ["Ann"])
        let cards = try FamilyFile.document(Array("BEGIN:VCARD\nFN:Bo Li\nN:Li;Bo;;;\nEND:VCARD\n".utf8), path: "-", name: "<stdin>")
        #expect(cards.kind == .vCard && cards.document.members.map(\.firstName) == ["Bo"])
        let tree = try FamilyFile.document(Array(#"{"members": [{"id": "c", "firstName": "Cy"}]}"#.utf8), path: "t.json", name: "t.json")
        #expect(tree.kind == .treeJSON && tree.document.members.map(\.id) == ["c"])
    }

    @Test func aFileOfAnotherKindIsNamedAndRefused() {
        #expect {
            _ = try FamilyFile.document(Array("<html>".utf8), path: "page.html", name: "page.html")
        } throws: { error in
            String(describing: error).hasPrefix("page.html: is not a tree file")
        }
    }

    @Test func aGEDZIPArchiveOpensItsGEDCOMAndRefusesABomb() throws {
        let scratch = try ScratchFolder("gedzip")
        func archive(_ name: String, _ body: String) throws -> [UInt8] {
            let path = scratch.path(name).path
            let script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    z.writestr('gedcom.ged', \(body))"
            let result = try ChildProcess.run("python3", ["-c", script, path])
            try #require(result.status == 0, "\(result.stderr)")
            return Array(try Data(contentsOf: scratch.path(name)))
        }
        let good = try archive("good.gdz", #"b'0 HEAD\n1 GEDC\n2 VERS 7.0\n0 @I1@ INDI\n1 NAME Ann /Berg/\n0 TRLR\n'"#)
        #expect(try FamilyFile.document(good, path: "good.gdz", name: "good.gdz").document.members.map(\.firstName) == ["Ann"])
        let bomb = try archive("bomb.gdz", #"b'0 HEAD\n1 NOTE ' + b'A' * (200 << 20) + b'\n0 TRLR\n'"#)
        #expect {
            _ = try FamilyFile.gedcom(bomb, name: "bomb.gdz")
        } throws: { error in
            String(describing: error).hasPrefix("bomb.gdz: gedcom.ged would expand to")
        }
    }
}
