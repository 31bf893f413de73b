"""The phone page's files for a weak Wi-Fi: made small once at start, then sent gzipped with a validator.

Each file under static/ is read once, minified (scripts and style sheets), gzipped once, and it gets an ETag
from its bytes; the page's scripts and its styles are also joined into one file each (BUNDLES). A phone that
accepts gzip gets the gzipped bytes; a phone that comes back sends the ETag and gets 304 Not Modified, with no
body. Nothing is written to disk (the installed package is read-only for the
companion's user).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

import rcssmin
import rjsmin
from aiohttp import web

REVALIDATE = "no-cache"  # kept, but asked about again each time: an update of the box is seen at once


def slim_js(text: str) -> str:
    """JavaScript without comments and needless blanks (rjsmin: it keeps strings, regular expressions and the
    line breaks that end a statement)."""
    return rjsmin.jsmin(text)


def slim_css(text: str) -> str:
    return rcssmin.cssmin(text)


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes
    content_type: str
    etag: str  # the only validator: Last-Modified would say less in 45 more bytes per response

    @classmethod
    def of(cls, data: bytes, content_type: str) -> Asset:
        digest = hashlib.sha256(data).hexdigest()[:12]
        return cls(data, gzip.compress(data, 9, mtime=0), content_type, f'"{digest}"')

    @classmethod
    def read(cls, path: Path) -> Asset:
        data = path.read_bytes()
        if path.suffix == ".js":
            data = slim_js(data.decode("utf-8")).encode("utf-8")
        elif path.suffix == ".css":
            data = slim_css(data.decode("utf-8")).encode("utf-8")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".json":
            content_type = "application/manifest+json" if path.name == "manifest.json" else "application/json"
        if content_type.startswith("text/") or content_type.endswith(("javascript", "json")):
            content_type += "; charset=utf-8"
        return cls.of(data, content_type)

    def response(self, request: web.Request, headers: dict[str, str] | None = None) -> web.Response:
        """200 with the body (gzipped if the phone takes it), or 304 if the phone has it already."""
        common = {"ETag": self.etag, "Cache-Control": REVALIDATE, "Vary": "Accept-Encoding",
                  "Server": "companion", **(headers or {})}
        if self._unchanged(request):
            return web.Response(status=304, headers=common)
        if accepts_gzip(request.headers.get("Accept-Encoding", "")) and len(self.gzipped) < len(self.body):
            response = web.Response(body=self.gzipped, headers={**common, "Content-Encoding": "gzip"})
        else:
            response = web.Response(body=self.body, headers=common)
        response.content_type, _, charset = self.content_type.partition("; charset=")
        if charset:
            response.charset = charset
        return response

    def _unchanged(self, request: web.Request) -> bool:
        match = request.headers.get("If-None-Match")
        if match is None:
            return False
        return match.strip() == "*" or self.etag in [tag.strip().removeprefix("W/") for tag in match.split(",")]


def accepts_gzip(accept: str) -> bool:
    for part in accept.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


# What a phone's page loads as one file each (index.html names them): its scripts in the order they run, and its
# styles in the order they cascade. One response and one gzip stream instead of seven: 2.4 KB less on the wire.
# The host's tools (host.js, host.css) are not in them: only the host's page fetches those.
BUNDLES = {
    "page.js": ("sha256.js", "parts.js", "rules.js", "app.js"),
    "page.css": ("style.css", "parts.css", "rules.css"),
}


class Assets:
    """Every file of the static folder, read and compressed once; and the page's bundles made of them."""

    def __init__(self, folder: Path):
        self.files = {path.relative_to(folder).as_posix(): Asset.read(path)
                      for path in sorted(folder.rglob("*")) if path.is_file()}
        for name, parts in BUNDLES.items():
            assert name not in self.files, f"static/{name} would hide the bundle of that name"
            joiner = b";\n" if name.endswith(".js") else b"\n"  # a script that ends without ";" ends there
            self.files[name] = Asset.of(joiner.join(self.files[part].body for part in parts),
                                        self.files[parts[0]].content_type)

    def get(self, name: str) -> Asset | None:
        return self.files.get(name)
