import ArgumentParser
import FamilyTree

/// Whom a published chart or file hides.
enum PrivacyChoice: String, ExpressibleByArgument, CaseIterable {
    case living
}

extension PrivateNames: ExpressibleByArgument {}

/// `--private living` and its settings, shared by the commands that publish a tree.
struct PrivacyOptions: ParsableArguments {
    @Option(name: .customLong("private"), help: "living: show people who may be alive as \"Living\", with no dates, photo, notes or contact details.")
    var choice: PrivacyChoice?

    @Option(help: "With --private living: keep the surname (surname) or not (none).")
    var privateNames: PrivateNames = .surname

    @Option(help: "With --private living: someone born more than this many years ago is taken as dead.")
    var livingAge: Int = 110

    func validate() throws {
        guard (1...200).contains(livingAge) else { throw ValidationError("--living-age takes a number of years from 1 to 200") }
    }

    /// `graph` with the living hidden when asked, and the ids of the hidden.
    func apply(to graph: FamilyGraph, today: Int) -> (graph: FamilyGraph, privateIDs: Set<Member.ID>) {
        guard choice == .living else { return (graph, []) }
        let rule = LivingRule(maximumAge: livingAge)
        return graph.privatizingLiving(rule.living(in: graph, today: today), names: privateNames)
    }
}
