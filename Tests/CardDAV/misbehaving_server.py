#!/usr/bin/env python3
"""A server that behaves the way some real ones do, for the CardDAV client's tests.

Usage: misbehaving_server.py MODE
  500            answers every request with 500 Internal Server Error
  hang           accepts connections and never answers
  garbage        answers 207 Multi-Status with a body that is not XML
  no-sync-token  an address book of three cards with a ctag but no sync tokens (RFC 6578 absent):
                 PROPFIND, addressbook-query and addressbook-multiget only
  foreign-href   like no-sync-token, but one card's address is on another server
  truncating     an address book of three cards whose sync-collection report returns at most two
                 changes at a time, marking the rest with 507 on the collection (RFC 6578 3.6)
  cut-off        like no-sync-token with a new ctag, but every listing of the cards stops in the
                 middle of its XML (the HTTP answer itself is whole: its Content-Length is honest)
  large          like no-sync-token, with 160 cards of a 66 KB photo each: one answer of 10.6 MB
  endless        answers 207 with a multistatus that never ends (no Content-Length)
  bad-utf8       answers 207 with an element name holding a byte that is not UTF-8
Prints the port it listens on (127.0.0.1), then serves until killed. Every request line is
appended to the file named by $REQUEST_LOG, if set, so a test can see what the client asked.
"""
import os
import re
import socket
import sys
import threading
import time
import zlib

mode = sys.argv[1]
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(16)
print(server.getsockname()[1], flush=True)

BOOK = "/alice/book/"
CARDS = {
    f"{BOOK}{uid}.vcf": f"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Okafor;{name};;;\r\nFN:{name} Okafor\r\nUID:{uid}\r\nEND:VCARD\r\n"
    for uid, name in (("c1", "Grace"), ("c2", "Samuel"), ("c3", "Daniel"))
}
if mode == "large":
    # A PNG header, then filler: 66,000 bytes of base64 per card.
    PHOTO = "iVBORw0KGgo" + "A" * (66_000 - 11)
    CARDS = {
        f"{BOOK}p{index:03}.vcf": f"BEGIN:VCARD\r\nVERSION:3.0\r\nN:Person;P{index:03};;;\r\nFN:P{index:03} Person\r\n"
                                  f"UID:p{index:03}\r\nPHOTO;ENCODING=b;TYPE=PNG:{PHOTO}\r\nEND:VCARD\r\n"
        for index in range(160)
    }


def etag(href):
    return f'"{zlib.crc32(CARDS[href].encode())}"'


def card_response(href, with_data):
    data = f"<C:address-data>{CARDS[href]}</C:address-data>" if with_data else ""
    shown = f"http://127.0.0.2:8080{href}" if mode == "foreign-href" and href.endswith("c2.vcf") else href
    return (f"<d:response><d:href>{shown}</d:href><d:propstat><d:prop><d:getetag>{etag(href)}</d:getetag>{data}"
            "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")


def multistatus(inner, token=None):
    token_element = f"<d:sync-token>{token}</d:sync-token>" if token else ""
    return ('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav" '
            f'xmlns:CS="http://calendarserver.org/ns/">{inner}{token_element}</d:multistatus>')


def answer_dav(method, path, body):
    """Status and body for the two address-book modes."""
    hrefs = sorted(CARDS)
    if method == "PROPFIND" and path == BOOK:
        ctag = "ctag-2" if mode == "cut-off" else "ctag-1"
        properties = f"<d:resourcetype><d:collection/><C:addressbook/></d:resourcetype><CS:getctag>{ctag}</CS:getctag>"
        if mode == "truncating":
            properties += "<d:sync-token>token-0</d:sync-token>"
        inner = (f"<d:response><d:href>{BOOK}</d:href><d:propstat><d:prop>{properties}</d:prop>"
                 "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        if "depth: 1" in body[1]:
            inner += "".join(card_response(href, False) for href in hrefs)
            if mode == "cut-off":
                whole = multistatus(inner)
                return 207, whole[:whole.index(hrefs[1])]
        return 207, multistatus(inner)
    if method == "REPORT" and "addressbook-query" in body[0]:
        return 207, multistatus("".join(card_response(href, True) for href in hrefs))
    if method == "REPORT" and "addressbook-multiget" in body[0]:
        wanted = re.findall(r"<d:href>([^<]*)</d:href>", body[0])
        return 207, multistatus("".join(card_response(href, True) for href in wanted if href in CARDS))
    if method == "REPORT" and "sync-collection" in body[0] and mode == "truncating":
        token = re.search(r"<d:sync-token>([^<]*)</d:sync-token>", body[0])
        start = {"": 0, "token-0": 0, "page-2": 2}.get(token.group(1) if token else "", None)
        if start is None:
            return 403, "invalid sync token"
        page = hrefs[start:start + 2]
        inner = "".join(card_response(href, True) for href in page)
        if start + 2 < len(hrefs):
            inner += f"<d:response><d:href>{BOOK}</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>"
            return 207, multistatus(inner, "page-2")
        return 207, multistatus(inner, "token-1")
    return 405, "not here"


def handle(connection):
    with connection:
        connection.settimeout(30)
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1)) if re.search(rb"(?i)content-length", head) else 0
            while len(body) < length:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                body += chunk
        except OSError:
            return
        request_line = head.split(b"\r\n")[0].decode()
        if os.environ.get("REQUEST_LOG"):
            with open(os.environ["REQUEST_LOG"], "a") as log:
                log.write(request_line + " " + body.decode(errors="replace").replace("\n", " ") + "\n")
        if mode == "hang":
            time.sleep(60)
            return
        if mode == "endless":
            try:
                connection.sendall(b"HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\nConnection: close\r\n\r\n"
                                   b'<d:multistatus xmlns:d="DAV:">')
                response = b"<d:response><d:href>/alice/book/x.vcf</d:href></d:response>" * 1000
                for _ in range(50_000):
                    connection.sendall(response)
            except OSError:
                pass
            return
        content_type = b"application/xml"
        if mode == "500":
            status, text = 500, "internal error"
        elif mode == "garbage":
            status, text = 207, "<multistatus><this is not xml"
        elif mode == "bad-utf8":
            status, text = 207, '<d:multistatus xmlns:d="DAV:"><d:respons\udcd0e/></d:multistatus>'

        else:
            method, path = request_line.split(" ")[:2]
            status, text = answer_dav(method, path, (body.decode(), head.decode().lower()))
        reason = {207: "Multi-Status", 403: "Forbidden", 405: "Method Not Allowed", 500: "Internal Server Error"}[status]
        payload = text.encode(errors="surrogateescape")
        connection.sendall(f"HTTP/1.1 {status} {reason}\r\nContent-Length: {len(payload)}\r\n".encode()
                           + b"Content-Type: " + content_type + b"\r\nConnection: close\r\n\r\n" + payload)


while True:
    connection, _ = server.accept()
    threading.Thread(target=handle, args=(connection,), daemon=True).start()
