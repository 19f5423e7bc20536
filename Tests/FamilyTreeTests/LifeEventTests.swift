import Testing
import FamilyTree

/// Events as people type them, and as tree.json holds them.
@Suite struct LifeEventTests {
    @Test func anEventIsItsKindThenADateThenWhere() throws {
        let burial = try #require(LifeEvent(describing: "burial 1799-12-18 Mount Vernon, Fairfax, Virginia"))
        #expect(burial.kind == .burial && burial.date == PartialDate("1799-12-18") && burial.place?.name == "Mount Vernon, Fairfax, Virginia")
        #expect(burial.place?.jurisdictions == ["Mount Vernon", "Fairfax", "Virginia"] && burial.place?.shortName == "Mount Vernon, Fairfax")
        let emigration = try #require(LifeEvent(describing: "Emigration between 1880 and 1885 in Bremen"))
        #expect(emigration.kind.tag == "EMIG" && emigration.date == PartialDate("between 1880 and 1885") && emigration.place?.name == "Bremen")
        let undated = try #require(LifeEvent(describing: "baptism St. Mary's"))
        #expect(undated.date == nil && undated.place?.name == "St. Mary's")
    }

    @Test func aFactHasItsValueBeforeThePlace() throws {
        let occupation = try #require(LifeEvent(describing: "occupation Planter in Mount Vernon"))
        #expect(occupation.value == "Planter" && occupation.place?.name == "Mount Vernon" && occupation.kind.isAttribute)
        let custom = try #require(LifeEvent(describing: "event 1789 Presidency in New York"))
        #expect(custom.kind.tag == "EVEN" && custom.type == "Presidency" && custom.date == PartialDate("1789") && custom.place?.name == "New York")
        let residence = try #require(LifeEvent(describing: "residence 1850 in Boston"))
        #expect(residence.value == nil && residence.place?.name == "Boston")
    }

    @Test func anUnknownKindIsNoEvent() {
        #expect(LifeEvent(describing: "coronation 1953") == nil)
        #expect(LifeEvent(describing: "") == nil)
        #expect(EventKind(word: "_MILT")?.tag == "_MILT" && EventKind(word: "_bad tag") == nil)
    }

    @Test func theCardSaysEventsWithPlacesAndSources() throws {
        var burial = try #require(LifeEvent(describing: "burial 1799-12-18 Mount Vernon"))
        burial.citations = [Citation(source: "S1", page: "p. 12"), Citation(source: nil, description: "Family bible")]
        let wording = EventWording(sources: [Source(id: "S1", title: "Parish register")])
        #expect(wording.line(burial) == "Burial: Dec 18, 1799 in Mount Vernon — Parish register, p. 12; Family bible")
        #expect(wording.line(LifeEvent(.occupation, value: "Planter")) == "Occupation: Planter")
        // Empty jurisdictions and sources that say nothing are left out.
        var empty = LifeEvent(.burial, place: Place(name: "Brookline, , Norfolk County, MA"))
        empty.citations = [Citation(source: "S2"), Citation(source: "S2", page: "p. 3")]
        #expect(EventWording(sources: [Source(id: "S2")]).line(empty) == "Burial: in Brookline, Norfolk County, MA — p. 3")
        #expect(wording.line(LifeEvent(EventKind(tag: "EVEN"), type: "Presidency")) == "Presidency")
    }
}
