"""The live preview of `qrs watch`: a small HTTP server (stdlib, in a thread) that shows the last good pages and
reloads when they change. It serves the page, a version number, files directly inside the preview folder, and the
PDFs the watch built (/pdf/<sheet>.<lang>), nothing else; it answers only requests addressed to it by a loopback
name, an IP address or the --host name given (not by a domain name another site could rebind to it)."""

from __future__ import annotations

import html
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

DEFAULT_PORT = 8765


@dataclass
class State:
    """What the live page shows: the last good pages of each sheet and language, the last problems."""

    version: int = 0
    pages: dict[str, list[str]] = field(default_factory=dict)  # "<sheet>.<lang>" → PNG file names
    pdfs: dict[str, Path] = field(default_factory=dict)  # "<sheet>.<lang>" → its PDF, linked from the page
    problems: list[str] = field(default_factory=list)
    building: list[str] = field(default_factory=list)  # the sources being built now: the page says so
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def start(self, names: list[str]) -> None:
        with self.lock:
            self.building = names

    def update(self, pages: dict[str, list[str]], problems: list[str], pdfs: dict[str, Path] | None = None) -> None:
        with self.lock:
            self.pages.update(pages)
            self.pdfs.update(pdfs or {})
            self.problems = problems
            self.building = []
            self.version += 1

    def now_building(self) -> list[str]:
        with self.lock:
            return list(self.building)

    def pdf(self, key: str) -> Path | None:
        with self.lock:
            return self.pdfs.get(key)

    def drawn(self) -> set[str]:
        """The names of every image on the page: the only files of the preview folder the server sends."""
        with self.lock:
            return {name for names in self.pages.values() for name in names}

    def snapshot(self) -> tuple[int, dict[str, list[str]], list[str]]:
        with self.lock:
            return self.version, {key: list(value) for key, value in self.pages.items()}, list(self.problems)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>qrs preview</title>
<style>
body {{ font-family: sans-serif; margin: 1rem; background: #ddd; }}
h2 {{ font-size: 1rem; margin: 1.5rem 0 .5rem; }}
img {{ display: block; max-width: 100%; margin-bottom: 1rem; box-shadow: 0 1px 4px #0004; background: #fff; }}
pre.problems {{ background: #fee; border: 1px solid #c00; padding: .5rem; white-space: pre-wrap; }}
</style></head>
<body>
<p>qrs watch: the last good build, reloaded on every save. <strong id="building"></strong></p>
{problems}
{sheets}
<script>
const shown = {version};
async function poll() {{
  try {{
    const response = await fetch("/version", {{cache: "no-store"}});
    const state = await response.json();
    if (state.version !== shown) {{ location.reload(); return; }}
    document.getElementById("building").textContent = state.building.length ? "building " + state.building.join(", ") + "…" : "";
  }} catch (error) {{}}
  setTimeout(poll, 1000);
}}
setTimeout(poll, 1000);
</script>
</body></html>
"""


def page(state: State) -> str:
    version, pages, problems = state.snapshot()
    sheets = (
        "\n".join(
            f'<h2>{html.escape(key)} <a href="/pdf/{html.escape(key)}?v={version}">PDF</a></h2>\n'
            + "\n".join(
                f'<img src="/files/{html.escape(name)}?v={version}" alt="{html.escape(key)}, page {number}">'
                for number, name in enumerate(names, start=1)
            )
            for key, names in sorted(pages.items())
        )
        or "<p>Nothing built yet.</p>"
    )
    shown = f'<pre class="problems">{html.escape(chr(10).join(problems))}</pre>' if problems else ""
    return PAGE.format(problems=shown, sheets=sheets, version=version)


def served_file(folder: Path, request_path: str, drawn: set[str] | None = None) -> Path | None:
    """The file a /files/<name> request names, if it is a file directly inside `folder` and one of the images
    this watch drew (`drawn`: another file put in build/preview/ is not served); else None."""
    path = urlsplit(request_path).path
    if not path.startswith("/files/"):
        return None
    name = unquote(path[len("/files/") :])
    if not name or name.startswith(".") or any(char in name for char in "/\\\0"):
        return None
    if drawn is not None and name not in drawn:
        return None
    root = folder.resolve()
    target = (root / name).resolve()
    if target.parent != root or not target.is_file():
        return None
    return target


HEAD_SECONDS = 10.0  # a request's whole head (its line and headers), however slowly sent: then it is closed
HUNG_UP = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)  # a client gone: no error


class _Head:
    """The request's reader while its head is read: past the deadline, reading fails as a silent client's does. A
    client sending one header line every few seconds never stays silent for `timeout`, and held a thread for ever."""

    def __init__(self, reader, connection, deadline: float):
        self.reader, self.connection, self.deadline = reader, connection, deadline

    def readline(self, *size):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request's head took too long")
        self.connection.settimeout(min(left, Handler.timeout))
        return self.reader.readline(*size)

    def __getattr__(self, name):
        return getattr(self.reader, name)


class Handler(BaseHTTPRequestHandler):
    server: "PreviewServer"
    timeout = 10  # seconds a connection may stay silent: a slow client does not hold its thread for ever

    def setup(self) -> None:
        super().setup()
        self.rfile = _Head(self.rfile, self.connection, time.monotonic() + HEAD_SECONDS)

    def handle(self) -> None:
        try:
            super().handle()
        except HUNG_UP:
            pass  # a browser's reload or a closed tab hangs up: nothing to tell

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        self.server.headed(self.request)  # its head is read: a slow client's place is not this one's
        self.rfile.deadline = time.monotonic() + HEAD_SECONDS  # the next request on this connection: its own
        self.connection.settimeout(self.timeout)  # the answer is sent at the pace a silent client is given
        return parsed

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        path = urlsplit(self.path).path
        if not self._host_is_this_server():
            self._send(HTTPStatus.MISDIRECTED_REQUEST, "text/plain; charset=utf-8", b"unknown Host header\n")
        elif path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", page(self.server.state).encode())
        elif path == "/version":
            version, _, problems = self.server.state.snapshot()
            state = {"version": version, "problems": problems, "building": self.server.state.now_building()}
            self._send(HTTPStatus.OK, "application/json", json.dumps(state).encode())
        elif path.startswith("/pdf/") and (built := self.server.state.pdf(unquote(path[len("/pdf/") :]))):
            self._send(HTTPStatus.OK, "application/pdf", built.read_bytes())  # only a PDF this watch built
        elif (target := served_file(self.server.folder, self.path, self.server.state.drawn())) is not None:
            kind = {".png": "image/png", ".pdf": "application/pdf"}.get(target.suffix, "application/octet-stream")
            self._send(HTTPStatus.OK, kind, target.read_bytes())
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found\n")

    def _host_is_this_server(self) -> bool:
        """A page of another site that rebinds its name to this address (DNS rebinding) sends its own name as
        Host: only localhost, an IP address or the name given with --host are answered, at this port, so it
        cannot read the previews. (A phone on the network asks by IP address.)"""
        name, colon, port = (self.headers.get("Host") or "").strip().lower().rpartition(":")
        if not colon or port != str(self.server.server_address[1]):
            return False
        return name in ("localhost", self.server.host_name) or _is_ip_address(name)

    def _send(self, status: HTTPStatus, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args) -> None:  # noqa: A002 - quiet: the terminal is for build problems
        pass


def _is_ip_address(name: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return True


MAX_CONNECTIONS = 32  # at once: a browser opens a few; more are closed at once instead of holding a thread each


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = MAX_CONNECTIONS

    def process_request(self, request, client_address) -> None:
        """Each connection a thread, MAX_CONNECTIONS at most. When all are taken, the one that has been sending its
        head longest is closed to make room: a browser's request is read in a moment, so slow clients crowding
        the server lock no one out."""
        if not self.slots.acquire(blocking=False):
            with self.lock:
                oldest = min(self.heads, key=self.heads.get, default=None)
                self.heads.pop(oldest, None)
            if oldest is not None:
                _hang_up(oldest)
            if not self.slots.acquire(timeout=1.0):
                self.shutdown_request(request)
                return
        with self.lock:
            self.heads[request] = time.monotonic()
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.headed(request)
            self.slots.release()

    def headed(self, request) -> None:
        """The connection's head is read (or it is gone): it is no longer one to close to make room."""
        with self.lock:
            self.heads.pop(request, None)

    def handle_error(self, request, client_address) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], HUNG_UP):  # a client that hung up is no error of the server's
            super().handle_error(request, client_address)

    def __init__(self, address, folder: Path, state: State):
        self.folder = folder
        self.state = state
        self.host_name = address[0].lower()  # the name given with --host, answered as Host too
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.heads: dict = {}  # the connections still sending their request's head, and since when
        self.lock = threading.Lock()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)


def _hang_up(request) -> None:
    try:
        request.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already gone


SHUTDOWN_POLL = 0.05  # seconds between two looks of the serving loop at a shutdown asked


def serve(folder: Path, state: State, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> PreviewServer:
    """Start the preview server in a background thread (port 0: any free port); stop it with shutdown()."""
    folder.mkdir(parents=True, exist_ok=True)
    server = PreviewServer((host, port), folder, state)
    # shutdown() waits for the loop's next look at its flag: every 0.5 s by default, a pause at each Ctrl-C
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL}, name="qrs-preview", daemon=True
    ).start()
    return server
