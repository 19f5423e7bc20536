// Builds a small family in code, lays it out and writes the chart as SVG: the library's public
// API end to end, compiled with every build and run by a test.
//
//   swift run familytree-example > lovelace.svg
import FamilyTree
import FamilyTreeLayout
import FamilyTreeRender

var file = TreeFile.empty(file: "lovelace.json")
do {
    try file.apply(
        .addMember(Member(id: "byron", firstName: "George", lastName: "Byron", nickname: "Lord Byron", sex: .male, birthday: PartialDate("1788-01-22"))),
        .addMember(Member(id: "annabella", firstName: "Annabella", lastName: "Milbanke", sex: .female, birthday: PartialDate("1792-05-17"))),
        .marry("byron", "annabella", date: PartialDate("1815-01-02")),
        .addMember(Member(id: "ada", firstName: "Ada", lastName: "Lovelace", sex: .female, birthday: PartialDate("1815-12-10")), parents: ["byron", "annabella"]),
        .addMember(Member(id: "william", firstName: "William", lastName: "King", sex: .male, birthday: PartialDate("1805-02-21"))),
        .marry("ada", "william", date: PartialDate("1835-07-08")),
        .addMember(Member(id: "byron-king", firstName: "Byron", lastName: "King-Noel", birthday: PartialDate("1836-05-12")), parents: ["ada", "william"]),
        .addMember(Member(id: "annabella-king", firstName: "Anne Isabella", lastName: "King-Noel", birthday: PartialDate("1837-09-22")), parents: ["ada", "william"]),
        .editMember("ada", MemberChanges(deathDate: .set(PartialDate("1852-11-27")!)))
    )
} catch {
    // Every problem at once, each naming its record.
    print(error)
}

let labeler = Labeler(format: .nameYears)
let layout = LayeredLayout().place(file.graph)
print(try SVGRenderer(labeler: labeler).render(layout, of: file.graph), terminator: "")
