"""`qrs watch`: rebuild on save, and a live preview of the last good build on http://localhost:PORT/.

Three pieces, each testable alone:
- `to_rebuild`: which sheets and handouts a set of changed files concerns (a template concerns them all; a
  sheet's source or catalogue, every watched handout, since a handout draws on its sheet);
- `Watcher.rebuild`: builds those sheets and handouts (through the manifest, as `qrs build` does), draws their pages
  (generator.output.preview), and reports problems as the usual file:line:column lines; a failed build leaves the
  last good pages in place;
- `serve`: a small HTTP server (stdlib, in a thread) that shows the pages and reloads when they change.
  It serves the page, a version number, files directly inside the preview folder, and the PDFs it built
  (/pdf/<sheet>.<lang>), nothing else; it answers only requests addressed to it by a loopback name, an IP
  address or the --host name given (not by a domain name another site could rebind to it).
"""

from __future__ import annotations

import html
import json
import socket
import threading
import time
import traceback
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import unquote, urlsplit

from generator import files, pipeline

from generator.output import preview
from generator.errors import Problem, UserError
from generator.project import Project
from generator.report import shown

DEFAULT_PORT = 8765
DEFAULT_SCALE = 1.5
KEPT_PAGES = 24  # layouts kept between rebuilds: about 4 MB each


class CannotServe(Exception):
    """The preview server could not start (the port is taken, say)."""


def to_rebuild(changed: Iterable[Path], project: Project, watched: list[Path]) -> list[Path]:
    """The watched sources that changed files concern: a source itself, a catalogue of it
    (sources/i18n/<sheet>.<lang>.po, sources/handouts/i18n/<handout>.<lang>.po), or any template (all of them);
    a watched handout is concerned by any sheet's source or catalogue too. Other files concern none."""
    templates = project.templates.resolve()
    sources = project.sources.resolve()
    handouts = [path for path in watched if path.parent.resolve() == sources / "handouts"]
    chosen: set[Path] = set()
    for path in changed:
        path = Path(path).resolve()
        if path.is_relative_to(templates):
            return list(watched)
        for folder in (sources, sources / "handouts"):
            by_id = {source.stem: source for source in watched if source.parent.resolve() == folder}
            if path.parent == folder and path.suffix == ".yaml" and path.stem in by_id:
                chosen.add(by_id[path.stem])
            elif path.parent == folder / "i18n" and path.suffix == ".po" and path.name.split(".")[0] in by_id:
                chosen.add(by_id[path.name.split(".")[0]])
        if path.parent in (sources, sources / "i18n") and path.suffix in (".yaml", ".po"):
            chosen.update(handouts)
        if path.suffix.lower() in files.FIGURE_SUFFIXES and path.is_relative_to(sources):  # a figure's picture
            name = path.relative_to(sources).as_posix()
            chosen.update(source for source in watched if source in handouts or name in files.figures_named_in(source))
    return [path for path in watched if path in chosen]


def edited_languages(changed: Iterable[Path], source: Path) -> tuple[str, ...]:
    """The languages whose catalogue of this source is among the changed files (sources/i18n/wab2.en.po: en): a
    translator's save shows the language being translated, besides those watched."""
    catalogues = source.parent / "i18n"
    found = []
    for path in changed:
        name = Path(path).name.split(".")
        if Path(path).parent.resolve() == catalogues.resolve() and len(name) == 3 and name[0] == source.stem and name[2] == "po":
            found.append(name[1])
    return tuple(dict.fromkeys(found))


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


@dataclass
class Watcher:
    project: Project
    sheets: tuple[str, ...] = ()  # the sheets watched; none given (and no handout): every sheet, including new ones
    languages: tuple[str, ...] = ()  # the languages built; none given: every one each sheet has (watched_languages)
    options: pipeline.BuildOptions = field(default_factory=pipeline.BuildOptions)
    scale: float = DEFAULT_SCALE
    state: State = field(default_factory=State)
    on_wrote: Callable[[Path], None] = lambda path: None
    on_problems: Callable[[list[Problem]], None] = lambda problems: None
    handouts: tuple[str, ...] = ()  # the handouts watched (by id or path)
    on_note: Callable[[str], None] = lambda text: None  # a language left out, said once
    _said: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        from generator.rendering import render

        render.keep_pages(KEPT_PAGES)  # an edit lays out again only the pages whose HTML it changed

    @property
    def folder(self) -> Path:
        return preview.folder(self.project)

    def watched(self) -> list[Path]:
        sheets = self.project.sheet_paths(self.sheets) if self.sheets or not self.handouts else []
        return sheets + (self.project.handout_paths(self.handouts) if self.handouts else [])

    def _is_handout(self, source: Path) -> bool:
        return source.parent.resolve() == self.project.handouts.resolve()

    def rebuild(self, sources: Iterable[Path], changed: Iterable[Path] = ()) -> list[Problem]:
        """Build each source in its languages (and in those of its `changed` catalogues) and draw its pages; report
        and return the problems."""
        problems: list[Problem] = []
        pages: dict[str, list[str]] = {}
        pdfs: dict[str, Path] = {}
        sources, changed = list(sources), list(changed)
        self.state.start([source.stem for source in sources])
        for source in sources:
            handout = self._is_handout(source)
            try:
                edited = edited_languages(changed, source)
                # the translation being edited first: its page is the one the translator looks at
                languages = tuple(dict.fromkeys([*edited, *(self.languages or self.watched_languages(source, handout))]))
            except UserError as error:
                problems.extend(error.problems)
                continue
            for lang in languages:
                try:  # recorded in the manifest
                    pdf, built = preview.pdf(self.project, source, lang, self.options, handout=handout)
                except UserError as error:
                    problems.extend(error.problems)
                    continue
                except Exception as error:  # noqa: BLE001 - a template being edited: report it, keep watching
                    problems.append(_unexpected(error, source))
                    continue
                if built:
                    self.on_wrote(pdf)
                drawn = preview.pages(pdf, self.folder, f"{source.stem}.{lang}", self.scale)
                pages[f"{source.stem}.{lang}"] = [path.name for path in drawn]
                pdfs[f"{source.stem}.{lang}"] = pdf
        problems = sorted(set(problems))
        if problems:
            self.on_problems(problems)
        self.state.update(pages, [str(problem) for problem in problems], pdfs)
        return problems

    def watched_languages(self, source: Path, handout: bool) -> tuple[str, ...]:
        """Every language a sheet has (its own, then each catalogue's) or a handout lists; a sheet's language in
        progress is left out and said, once (unless --allow-fallback, which prints it with the canonical text)."""
        if handout:
            return preview.languages(self.project, source, handout=True)
        from generator.composing import languages as translations, translate as i18n

        located, sheet = pipeline.load(source)
        pending = {} if self.options.allow_fallback else translations.in_progress(self.project, located, sheet)
        for lang, count in pending.items():
            note = (f"{shown(i18n.catalogue_path(self.project.sources, sheet.sheet, lang))}: '{lang}' is in progress "
                    f"({count} string(s) to translate), not watched; 'qrs watch {sheet.sheet} --lang {lang} "
                    "--allow-fallback' shows it with the canonical text where missing")
            if note not in self._said:
                self._said.add(note)
                self.on_note(note)
        return tuple(lang for lang in i18n.languages(self.project.sources, sheet) if lang not in pending)

    def changed(self, paths: Iterable[Path]) -> list[Problem]:
        """Rebuild what changed files concern (nothing when they concern no watched sheet)."""
        try:
            watched = self.watched()
        except UserError as error:  # a watched sheet was removed or renamed
            self.on_problems(error.problems)
            self.state.update({}, [str(problem) for problem in error.problems])
            return error.problems
        paths = list(paths)
        targets = to_rebuild(paths, self.project, watched)
        return self.rebuild(targets, paths) if targets else []

    def run(self, port: int = DEFAULT_PORT, host: str = "127.0.0.1", announce: Callable[[str], None] = print,
            stop: threading.Event | None = None, open_browser: bool = False) -> None:
        """Build everything once, then serve the preview and rebuild on every save until interrupted."""
        import watchfiles

        first = self.watched()  # an unknown sheet name stops here, before anything starts
        try:
            server = serve(self.folder, self.state, host, port)
        except OSError as error:
            raise CannotServe(f"cannot serve on {host}:{port}: {error.strerror or error}") from None
        address = f"http://{'localhost' if _is_loopback(host) else host}:{server.server_address[1]}/"
        announce(f"live preview: {address} (Ctrl-C to stop)")
        if open_browser:
            import webbrowser

            if not webbrowser.open(address):  # False: no browser found to open it (a server, a container)
                announce(f"no web browser found to open it: open {address} in one yourself")
        try:
            self.rebuild(first)
            roots = [path for path in (self.project.sources, self.project.templates) if path.exists()]
            # Ctrl-C goes on to the command, which says so and exits 130 (watchfiles would log and return)
            for changes in watchfiles.watch(*roots, stop_event=stop, raise_interrupt=True):
                self.changed(Path(path) for _, path in changes)
        finally:
            server.shutdown()
            server.server_close()


def _is_loopback(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1")


def _unexpected(error: Exception, source: Path) -> Problem:
    """An error that is not a source problem, placed at the template line it came from when there is one."""
    where = [(frame.filename, frame.lineno) for frame in traceback.extract_tb(error.__traceback__)
             if frame.filename.endswith(".j2")]
    line = getattr(error, "lineno", None)
    name = getattr(error, "filename", None)
    if name and line:  # a template syntax error names its file and line
        return Problem(str(name), line, 1, f"{type(error).__name__}: {error}")
    if where:
        return Problem(where[-1][0], where[-1][1] or 1, 1, f"{type(error).__name__}: {error}")
    return Problem(str(source), 1, 1, f"internal error while building: {type(error).__name__}: {error}")


# --- the live preview --------------------------------------------------------------------------

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
    sheets = "\n".join(
        f'<h2>{html.escape(key)} <a href="/pdf/{html.escape(key)}?v={version}">PDF</a></h2>\n' + "\n".join(
            f'<img src="/files/{html.escape(name)}?v={version}" alt="{html.escape(key)}, page {number}">'
            for number, name in enumerate(names, start=1))
        for key, names in sorted(pages.items())
    ) or "<p>Nothing built yet.</p>"
    shown = f'<pre class="problems">{html.escape(chr(10).join(problems))}</pre>' if problems else ""
    return PAGE.format(problems=shown, sheets=sheets, version=version)


def served_file(folder: Path, request_path: str, drawn: set[str] | None = None) -> Path | None:
    """The file a /files/<name> request names, if it is a file directly inside `folder` and one of the images
    this watch drew (`drawn`: another file put in build/preview/ is not served); else None."""
    path = urlsplit(request_path).path
    if not path.startswith("/files/"):
        return None
    name = unquote(path[len("/files/"):])
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
        elif path.startswith("/pdf/") and (built := self.server.state.pdf(unquote(path[len("/pdf/"):]))):
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


def serve(folder: Path, state: State, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> PreviewServer:
    """Start the preview server in a background thread (port 0: any free port); stop it with shutdown()."""
    folder.mkdir(parents=True, exist_ok=True)
    server = PreviewServer((host, port), folder, state)
    threading.Thread(target=server.serve_forever, name="qrs-preview", daemon=True).start()
    return server
