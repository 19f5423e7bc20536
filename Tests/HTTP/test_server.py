"""An HTTP/1.1 server for the HTTP client's tests, on a free port of 127.0.0.1 (printed first);
with a certificate and its key as arguments, over TLS.

Each path is a behaviour:
  /echo                   200, a JSON of the method, path, headers, body and client port it got
  /redirect/CODE?to=URL   CODE with Location: URL (a body of its own)
  /loop                   307 to itself
  /endless                200 with no length, bytes until the client stops reading
  /hang                   the head, then nothing
  /status/CODE            CODE with a short body (none for 204 and 304)
  /redirect-endless       307 to /echo with a body that never ends
  /bad-status             a status line whose code is two digits
  /count                  how many requests this server has had, this one included
"""
import json
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


requests = 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status not in (204, 304):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status not in (204, 304):
            self.wfile.write(body)

    def handle_any(self):
        global requests
        requests += 1
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        if url.path == "/echo":
            seen = {
                "method": self.command,
                "path": self.path,
                "headers": [[name, value] for name, value in self.headers.items()],
                "body": body.decode("utf-8", "replace"),
                "port": self.client_address[1],
            }
            self.answer(200, json.dumps(seen).encode(), [("Content-Type", "application/json"), ("X-Echo", "yes")])
        elif url.path.startswith("/redirect/"):
            code = int(url.path.rsplit("/", 1)[1])
            self.answer(code, b"moved", [("Location", parse_qs(url.query)["to"][0])])
        elif url.path == "/loop":
            self.answer(307, b"again", [("Location", "/loop")])
        elif url.path == "/count":
            self.answer(200, str(requests).encode())
        elif url.path == "/bad-status":
            self.wfile.write(b"HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n")
            self.close_connection = True
        elif url.path == "/redirect-endless":
            self.send_response(307)
            self.send_header("Location", "/echo")
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b"y" * 65536)
            except OSError:
                pass
            self.close_connection = True
        elif url.path == "/endless":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
        elif url.path == "/hang":
            self.send_response(200)
            self.send_header("Content-Length", "10")
            self.end_headers()
            self.wfile.flush()
            time.sleep(120)
        elif url.path.startswith("/status/"):
            self.answer(int(url.path.rsplit("/", 1)[1]), b"status")
        else:
            self.answer(404, b"no such behaviour")

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_PROPFIND = handle_any


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if len(sys.argv) == 3:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
