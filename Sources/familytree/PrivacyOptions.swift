import ArgumentParser
import FamilyTree
import FamilyTreeRender

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

    @Option(help: "With --private living and no birth year: a child born more than this many years ago means dead.")
    var livingChildYears: Int = 90

    @Option(help: "With --private living and no birth year: a parent born more than this many years ago means dead.")
    var livingParentYears: Int = 130

    func validate() throws {
        for (name, years) in [("--living-age", livingAge), ("--living-child-years", livingChildYears), ("--living-parent-years", livingParentYears)] {
            guard (1...300).contains(years) else { throw ValidationError("\(name) takes a number of years from 1 to 300") }
        }
    }

    /// What a chart hides, as these options say.
    var chartPrivacy: Chart.Privacy? {
        guard choice == .living else { return nil }
        return Chart.Privacy(rule: livingRule, names: privateNames)
    }

    private var livingRule: LivingRule {
        LivingRule(maximumAge: livingAge, childBornYearsAgo: livingChildYears, parentBornYearsAgo: livingParentYears)
    }

    /// `graph` with the living hidden when asked, and the ids of the hidden.
    func apply(to graph: FamilyGraph, today: Int) -> (graph: FamilyGraph, privateIDs: Set<Member.ID>) {
        guard choice == .living else { return (graph, []) }
        return graph.privatizingLiving(livingRule.living(in: graph, today: today), names: privateNames)
    }
}
