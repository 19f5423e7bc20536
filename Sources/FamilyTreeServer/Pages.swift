#if Server
import Hummingbird

/// The server's few pages until the family's web app (#33) arrives: static HTML, no script.
enum Pages {
    static var home: Response { page(title: "familytree", body: """
        <h1>familytree</h1>
        <p>This server keeps a family's trees. Sign in from the command line with
        <code>familytree login ADDRESS</code>, then <code>familytree sync pull -o tree.json --store ADDRESS</code>.</p>
        <p>The HTTP API is described by <code>openapi.yaml</code> in familytree's sources; it lives under <code>/api/v1</code>.</p>
        """)
    }

    static var invite: Response { page(title: "An invite to a family tree", body: """
        <h1>You are invited to a family tree</h1>
        <p>To join from the command line, run <code>familytree join</code> with the address of this page:
        it asks for the user id and password you want, and then you can pull the tree.</p>
        <p>The invite works once, and only until it expires.</p>
        """)
    }

    private static func page(title: String, body: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}
            @media (prefers-color-scheme: dark){body{background:#111;color:#eee}code{background:#333}}</style>
            </head><body>\(body)</body></html>

            """
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // The inline style above is the only one the page has: allowed by its hash-free rule for styles only.
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
#endif
