// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "familytree",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "FamilyTree", targets: ["FamilyTree"]),
        .library(name: "FamilyTreeLayout", targets: ["FamilyTreeLayout"]),
        .library(name: "FamilyTreeRender", targets: ["FamilyTreeRender"]),
        .library(name: "FamilyTreeCalendar", targets: ["FamilyTreeCalendar"]),
        .library(name: "FamilyTreeGEDCOM", targets: ["FamilyTreeGEDCOM"]),
        .library(name: "FamilyTreeContacts", targets: ["FamilyTreeContacts"]),
        .library(name: "FamilyTreeSync", targets: ["FamilyTreeSync"]),
        .library(name: "FamilyTreeFiles", targets: ["FamilyTreeFiles"]),
        .library(name: "FamilyTreeCardDAV", targets: ["FamilyTreeCardDAV"]),
        .library(name: "FamilyTreeAPI", targets: ["FamilyTreeAPI"]),
        .library(name: "FamilyTreeRemote", targets: ["FamilyTreeRemote"]),
        .library(name: "FamilyTreeServer", targets: ["FamilyTreeServer"]),
        .library(name: "FamilyTreePDF", targets: ["FamilyTreePDF"]),
        .executable(name: "familytree", targets: ["familytree"]),
    ],
    traits: [
        // Graphviz's cgraph as a second layout engine and renderer (needs libgraphviz-dev).
        .trait(name: "Graphviz"),
        // The PostgreSQL document store (postgres-nio, which brings SwiftNIO and BoringSSL: minutes to build).
        .trait(name: "PostgreSQL"),
        // `familytree serve`: the sync API over HTTP (Hummingbird on SwiftNIO, bcrypt, swift-crypto).
        .trait(name: "Server"),
        // `render -o chart.pdf`: the chart's SVG drawn into a PDF by librsvg and cairo (needs librsvg2-dev).
        .trait(name: "PDF"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // GEDZIP (.gdz) archives, read by the CLI.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        // The embedded document store and each device's sync state (SQLite, WAL mode).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        // TLS to PostgreSQL (already a dependency of postgres-nio).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // Running Graphviz's `dot` for `stats --engine dot`.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.0"),
        // `swift package generate-documentation`: the API reference from the doc comments.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The HTTP sync API's typed client and server, generated from Sources/FamilyTreeAPI/openapi.yaml.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        // The server (trait Server).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        // Already Hummingbird's: named here for the graceful shutdown that ends the change streams.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // Rounding calls libm, which a program without Foundation does not link by itself on Linux.
        .target(name: "FamilyTree", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(name: "FamilyTreeLayout", dependencies: ["FamilyTree"]),
        .target(name: "FamilyTreeCalendar", dependencies: ["FamilyTree"]),
        .target(name: "FamilyTreeGEDCOM", dependencies: ["FamilyTree"]),
        .target(name: "FamilyTreeContacts", dependencies: ["FamilyTree"]),
        // Any family file by its kind: tree.json, GEDCOM and GEDZIP archives (ZIPFoundation), vCard.
        .target(name: "FamilyTreeFiles", dependencies: [
            "FamilyTree", "FamilyTreeGEDCOM", "FamilyTreeContacts", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        // libcurl, loaded by the first request instead of linked: a run that never talks to a
        // server never maps it and the thirty libraries it needs (URLSession on Linux links them).
        .target(name: "CLibcurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // HTTP requests for the commands that talk to servers (CardDAV, a familytree server).
        .target(name: "FamilyTreeHTTP", dependencies: ["CLibcurl"]),
        // A tree kept in step with a CardDAV address book (HTTP through FamilyTreeHTTP, a streaming XML parser).
        .target(name: "FamilyTreeCardDAV", dependencies: ["FamilyTree", "FamilyTreeContacts", "FamilyTreeHTTP"]),
        .target(name: "FamilyTreeSync", dependencies: ["FamilyTree", .product(name: "GRDB", package: "GRDB.swift")]),
        // The HTTP sync API: types and client generated from openapi.yaml (scripts/generate-openapi).
        .target(
            name: "FamilyTreeAPI",
            dependencies: ["FamilyTreeSync", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"]
        ),
        // A document store on a familytree server, reached with a personal access token.
        .target(
            name: "FamilyTreeRemote",
            dependencies: [
                "FamilyTreeSync", "FamilyTreeAPI", "FamilyTreeHTTP",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // `familytree serve`. Its sources are wrapped in `#if Server`, like FamilyTreeGraphviz's.
        .target(
            name: "FamilyTreeServer",
            dependencies: [
                "FamilyTree", "FamilyTreeSync", "FamilyTreeAPI", "FamilyTreeRender",
                .target(name: "FamilyTreePostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: .when(traits: ["Server"])),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ],
            exclude: ["openapi-generator-config.yaml", "Web"]
        ),
        // Its sources are wrapped in `#if PostgreSQL`, like FamilyTreeGraphviz's.
        .target(
            name: "FamilyTreePostgres",
            dependencies: [
                "FamilyTree", "FamilyTreeSync",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // Viewer/ holds the HTML chart's script, style sheet and controls as files; scripts/generate-viewer embeds them.
        .target(name: "FamilyTreeRender", dependencies: ["FamilyTree", "FamilyTreeLayout", "FamilyTreeCalendar"], exclude: ["Viewer"]),
        .systemLibrary(name: "CGraphviz", pkgConfig: "libgvc", providers: [.apt(["libgraphviz-dev"])]),
        // Its sources are wrapped in `#if Graphviz`: a trait on the dependency edge alone still builds it.
        .target(
            name: "FamilyTreeGraphviz",
            dependencies: [
                "FamilyTree", "FamilyTreeLayout", "FamilyTreeRender",
                .target(name: "CGraphviz", condition: .when(traits: ["Graphviz"])),
            ]
        ),
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev", "libcairo2-dev"])]),
        // Its sources are wrapped in `#if PDF`, like FamilyTreeGraphviz's.
        .target(name: "FamilyTreePDF", dependencies: [.target(name: "CRSVG", condition: .when(traits: ["PDF"]))]),
        .executableTarget(
            name: "familytree",
            dependencies: [
                "FamilyTree", "FamilyTreeLayout", "FamilyTreeRender", "FamilyTreeCalendar", "FamilyTreeGEDCOM", "FamilyTreeContacts", "FamilyTreeSync",
                "FamilyTreeFiles", "FamilyTreeCardDAV", "FamilyTreeAPI", "FamilyTreeRemote",
                .target(name: "FamilyTreeGraphviz", condition: .when(traits: ["Graphviz"])),
                .target(name: "FamilyTreePostgres", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "FamilyTreeServer", condition: .when(traits: ["Server"])),
                .target(name: "FamilyTreePDF", condition: .when(traits: ["PDF"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        .executableTarget(
            name: "familytree-benchmark",
            dependencies: [
                "FamilyTree", "FamilyTreeLayout", "FamilyTreeRender", "FamilyTreeGEDCOM",
                .target(name: "FamilyTreeGraphviz", condition: .when(traits: ["Graphviz"])),
            ],
            path: "Benchmarks/LayoutBenchmark"
        ),
        .executableTarget(
            name: "familytree-sync-benchmark",
            dependencies: [
                "FamilyTree", "FamilyTreeSync",
                .target(name: "FamilyTreePostgres", condition: .when(traits: ["PostgreSQL"])),
            ],
            path: "Benchmarks/SyncBenchmark"
        ),
        // `familytree serve` under load (Server and PostgreSQL traits): docs/server.md.
        .executableTarget(
            name: "familytree-server-benchmark",
            dependencies: [
                "FamilyTree", "FamilyTreeSync", "FamilyTreeRemote", "FamilyTreeAPI",
                .target(name: "FamilyTreePostgres", condition: .when(traits: ["PostgreSQL"])),
            ],
            path: "Benchmarks/ServerBenchmark"
        ),
        .executableTarget(name: "familytree-relation-benchmark", dependencies: ["FamilyTree"], path: "Benchmarks/RelationBenchmark"),
        // The public API end to end: a tree built in code, laid out and drawn (run by a test).
        .executableTarget(
            name: "familytree-example",
            dependencies: ["FamilyTree", "FamilyTreeLayout", "FamilyTreeRender"],
            path: "Examples/BuildATree"
        ),
        // Helpers shared by the test targets (running other programs).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FamilyTreeTests", dependencies: ["FamilyTree", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FamilyTreeLayoutTests", dependencies: ["FamilyTree", "FamilyTreeLayout", "FamilyTreeGEDCOM", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FamilyTreeRenderTests", dependencies: ["FamilyTree", "FamilyTreeLayout", "FamilyTreeRender", "TestSupport"]),
        .testTarget(name: "FamilyTreeCalendarTests", dependencies: ["FamilyTree", "FamilyTreeCalendar", "FamilyTreeRender", "TestSupport"]),
        .testTarget(name: "FamilyTreeGraphvizTests", dependencies: ["FamilyTree", "FamilyTreeLayout", "FamilyTreeRender", "FamilyTreeGraphviz", "TestSupport"]),
        .testTarget(name: "FamilyTreeGEDCOMTests", dependencies: ["FamilyTree", "FamilyTreeGEDCOM", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FamilyTreeServerTests", dependencies: [
            "FamilyTreeServer", "FamilyTreeRemote", "FamilyTreeAPI", "FamilyTreeSync", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            .target(name: "FamilyTreePostgres", condition: .when(traits: ["PostgreSQL"])),
        ]),
        .testTarget(name: "FamilyTreeCardDAVTests", dependencies: ["FamilyTreeCardDAV"]),
        .testTarget(name: "FamilyTreeHTTPTests", dependencies: ["FamilyTreeHTTP", "TestSupport"]),
        .testTarget(name: "FamilyTreePDFTests", dependencies: ["FamilyTreePDF", "TestSupport"]),
        .testTarget(name: "FamilyTreeFilesTests", dependencies: ["FamilyTreeFiles", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "FamilyTreeContactsTests", dependencies: ["FamilyTree", "FamilyTreeContacts", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FamilyTreeSyncTests", dependencies: [
            "FamilyTree", "FamilyTreeSync", "TestSupport",
            .target(name: "FamilyTreePostgres", condition: .when(traits: ["PostgreSQL"])),
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
        ]),
        .testTarget(name: "familytreeTests", dependencies: ["familytree", "FamilyTree", "FamilyTreeSync", "FamilyTreeFiles", "FamilyTreeCalendar", "FamilyTreeRemote", "TestSupport", .target(name: "FamilyTreePostgres", condition: .when(traits: ["PostgreSQL"]))]),
    ],
    swiftLanguageModes: [.v6]
)
