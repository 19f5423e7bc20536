// swift-tools-version: 6.1
// Fuzz targets for familytree's parsers and writers (libFuzzer). A package of its own, so the
// main build never needs the sanitizers: `bash scripts/fuzz TARGET SECONDS` builds and runs one.
import PackageDescription

let package = Package(
    name: "familytree-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "familytree", path: ".."),
        // The store's own database library, to edit its file as a user with write access could.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // The invariants every fuzz target checks on what the pipeline writes.
        .target(name: "FuzzSupport", dependencies: [
            .product(name: "FamilyTree", package: "familytree"),
            .product(name: "FamilyTreeLayout", package: "familytree"),
            .product(name: "FamilyTreeRender", package: "familytree"),
            .product(name: "FamilyTreeCalendar", package: "familytree"),
            .product(name: "FamilyTreeGEDCOM", package: "familytree"),
        ]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzGEDCOM", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPipeline", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzVCard", dependencies: ["FuzzSupport", .product(name: "FamilyTreeContacts", package: "familytree")]),
        .executableTarget(name: "FuzzCardDAV", dependencies: ["FuzzSupport", .product(name: "FamilyTreeCardDAV", package: "familytree")]),
        .executableTarget(name: "FuzzStore", dependencies: [
            "FuzzSupport", .product(name: "FamilyTreeSync", package: "familytree"), .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
