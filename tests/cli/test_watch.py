"""`qrs watch`, piece by piece: what a save rebuilds, the last good preview kept, the server's files."""

from __future__ import annotations

import http.client
import json
import shutil
import threading

import pytest

from generator.cli import preview_server, watch
from generator.project import Project
from tests.conftest import FIXTURES, LIBRARY, run_qrs


@pytest.fixture
def project(tmp_path):
    (tmp_path / "sources" / "i18n").mkdir(parents=True)
    for name in ("alpha", "beta"):
        (tmp_path / "sources" / f"{name}.yaml").write_text("", encoding="utf-8")
    return Project.at(tmp_path / "sources")


def test_a_save_rebuilds_the_sheets_it_concerns(project):
    sources = project.sources
    alpha, beta = sources / "alpha.yaml", sources / "beta.yaml"
    watched = [alpha, beta]
    assert watch.to_rebuild([alpha], project, watched) == [alpha]
    assert watch.to_rebuild([sources / "i18n" / "beta.en.po"], project, watched) == [beta]
    assert watch.to_rebuild([sources / "i18n" / "beta.en.po", alpha], project, watched) == [alpha, beta]
    assert watch.to_rebuild([project.templates / "blocks" / "dice.html.j2"], project, watched) == watched
    assert watch.to_rebuild([project.templates / "sheet.css"], project, [beta]) == [beta]


def test_other_files_rebuild_nothing(project):
    sources = project.sources
    watched = [sources / "alpha.yaml"]
    unrelated = [
        sources / "beta.yaml",  # not watched
        sources / "i18n" / "beta.en.po",
        sources / "handouts" / "alpha.yaml",  # not a sheet source
        sources / "alpha.yaml~",
        project.build / "alpha.fr.pdf",
        sources.parent / "README.md",
    ]
    assert watch.to_rebuild(unrelated, project, watched) == []


def test_only_files_directly_inside_the_preview_folder_are_served(tmp_path):
    folder = tmp_path / "preview"
    (folder / "sub").mkdir(parents=True)
    (folder / "wab2.fr-1.png").write_bytes(b"png")
    (folder / "sub" / "inner.png").write_bytes(b"png")
    (folder / ".hidden").write_bytes(b"x")
    (tmp_path / "secret.txt").write_text("secret")
    (folder / "link.png").symlink_to(tmp_path / "secret.txt")
    assert preview_server.served_file(folder, "/files/wab2.fr-1.png?v=3") == (folder / "wab2.fr-1.png").resolve()
    for refused in (
        "/files/../secret.txt",
        "/files/..%2Fsecret.txt",
        "/files/%2e%2e/secret.txt",
        "/files/sub/inner.png",
        "/files/sub%2Finner.png",
        "/files/" + str(tmp_path / "secret.txt"),
        "/files/%2Fetc%2Fpasswd",
        "/files/.hidden",
        "/files/link.png",
        "/files/",
        "/files/..",
        "/files/missing.png",
        "/secret.txt",
        "/files/..%5Csecret.txt",
        "/files/a%00.png",
    ):
        assert preview_server.served_file(folder, refused) is None, refused


def test_the_server_shows_the_pages_and_their_version(tmp_path):
    folder = tmp_path / "preview"
    folder.mkdir()
    (folder / "wab2.fr-1.png").write_bytes(b"\x89PNG page one")
    (tmp_path / "secret.txt").write_text("secret")
    state = preview_server.State()
    state.update({"wab2.fr": ["wab2.fr-1.png"]}, ["sources/wab2.yaml:3:1: a problem"])
    server = preview_server.serve(folder, state, port=0)
    try:

        def get(path: str) -> tuple[int, str, bytes]:
            connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            connection.close()
            return response.status, response.getheader("Content-Type"), body

        status, kind, body = get("/")
        assert status == 200 and kind.startswith("text/html")
        assert b'src="/files/wab2.fr-1.png?v=1"' in body and b"sources/wab2.yaml:3:1: a problem" in body
        assert b'fetch("/version"' in body
        status, _, body = get("/version")
        assert status == 200 and json.loads(body)["version"] == 1 and json.loads(body)["building"] == []
        state.start(["wab2"])  # a save: the page says "building wab2…" until the new pages are drawn
        assert json.loads(get("/version")[2])["building"] == ["wab2"] and b'getElementById("building")' in get("/")[2]
        state.update({}, [])
        assert json.loads(get("/version")[2]) == {"version": 2, "problems": [], "building": []}
        assert get("/files/wab2.fr-1.png") == (200, "image/png", b"\x89PNG page one")
        for path in ("/files/../secret.txt", "/files/..%2Fsecret.txt", "/../secret.txt", "/secret.txt"):
            status, _, body = get(path)
            assert status == 404 and b"secret" not in body, path
    finally:
        server.shutdown()
        server.server_close()


def test_a_failed_build_keeps_the_last_good_preview(tmp_path):
    shutil.copytree(FIXTURES, tmp_path / "sources")
    project = Project.at(tmp_path / "sources")
    source = project.sources / "every-block.yaml"
    wrote, reported = [], []
    watcher = watch.Watcher(project, ("every-block",), scale=0.3, on_wrote=wrote.append, on_problems=reported.extend)

    assert watcher.changed([source]) == []
    version, pages, problems = watcher.state.snapshot()
    assert wrote == [project.build / "every-block.fr.pdf"] and problems == []
    first_page = project.build / "preview" / pages["every-block.fr"][0]
    good = first_page.read_bytes()

    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("die: 2D6", "die: 2D6\n        colour: red"), encoding="utf-8")
    found = watcher.changed([source])
    assert found and "colour" in found[0].message and found[0].path == str(source)
    assert reported == found
    later, kept, shown = watcher.state.snapshot()
    assert later == version + 1 and kept == pages and first_page.read_bytes() == good
    assert str(found[0]) in shown  # file:line:column: message, on the page as in the terminal
    assert watcher.changed([project.sources.parent / "notes.txt"]) == []  # nothing to rebuild, nothing changes
    assert watcher.state.snapshot()[0] == later


def test_a_template_error_is_reported_at_its_line_and_the_watch_goes_on(tmp_path):
    shutil.copytree(FIXTURES, tmp_path / "sources")
    shutil.copytree(Project.at(FIXTURES).templates, tmp_path / "templates")
    project = Project(
        sources=(tmp_path / "sources").resolve(),
        build=(tmp_path / "build").resolve(),
        templates=(tmp_path / "templates").resolve(),
    )
    template = project.templates / "sheet.html.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n{{ sheet.no_such_field }}\n", encoding="utf-8")
    reported = []
    watcher = watch.Watcher(project, ("every-block",), scale=0.3, on_problems=reported.extend)
    found = watcher.changed([template])
    assert len(found) == 1 and found[0].path == str(template) and found[0].line > 1
    assert "no_such_field" in found[0].message and reported == found


@pytest.mark.parametrize(
    "host, status",
    [
        ("localhost:{port}", 200),
        ("127.0.0.1:{port}", 200),
        ("[::1]:{port}", 200),
        ("LOCALHOST:{port}", 200),
        ("attacker.example:{port}", 421),
        ("attacker.example", 421),
        ("localhost", 421),
        ("localhost:1", 421),
        ("127.0.0.1.nip.io:{port}", 421),
        ("", 421),
        ("192.168.1.20:{port}", 200),
        ("[fe80::1]:{port}", 200),  # a phone, by IP
        ("mybox.lan:{port}", 200),
    ],
)
def test_the_server_answers_only_its_own_host_names(tmp_path, host, status):
    """DNS rebinding: a page of attacker.example, its name rebound to 127.0.0.1, sends Host: attacker.example.
    IP addresses and the name given with --host are answered: no other site can rebind those."""
    state = preview_server.State()
    state.update({}, ["sources/secret.yaml:1:1: a problem"])
    server = preview_server.serve(tmp_path / "preview", state, port=0)
    server.host_name = "mybox.lan"  # as `--host mybox.lan` would set it
    try:
        port = server.server_address[1]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.putrequest("GET", "/version", skip_host=True)
        connection.putheader("Host", host.format(port=port))
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        connection.close()
    finally:
        server.shutdown()
        server.server_close()
    assert response.status == status
    assert (b"secret.yaml" in body) == (status == 200)


def test_a_handout_is_rebuilt_by_its_file_its_catalogue_and_any_sheet(project):
    sources = project.sources
    alpha, army = sources / "alpha.yaml", sources / "handouts" / "army.yaml"
    watched = [alpha, army]
    assert watch.to_rebuild([army], project, watched) == [army]
    assert watch.to_rebuild([sources / "handouts" / "i18n" / "army.en.po"], project, watched) == [army]
    assert watch.to_rebuild([sources / "beta.yaml"], project, watched) == [army]  # the sheet it may draw on
    assert watch.to_rebuild([alpha], project, watched) == [alpha, army]
    assert watch.to_rebuild([sources / "handouts" / "other.yaml"], project, watched) == []


def test_the_page_links_each_pdf_and_serves_only_those_built(tmp_path):
    folder = tmp_path / "preview"
    folder.mkdir()
    built = tmp_path / "build" / "wab2.fr.pdf"
    built.parent.mkdir()
    built.write_bytes(b"%PDF-1.7 the sheet")
    (tmp_path / "build" / "other.fr.pdf").write_bytes(b"%PDF-1.7 not built by this watch")
    state = preview_server.State()
    state.update({"wab2.fr": []}, [], {"wab2.fr": built})
    server = preview_server.serve(folder, state, port=0)
    try:
        port = server.server_address[1]

        def get(path: str) -> tuple[int, bytes]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read()

        assert b'<a href="/pdf/wab2.fr?v=1">PDF</a>' in get("/")[1]
        assert get("/pdf/wab2.fr?v=1") == (200, b"%PDF-1.7 the sheet")
        for refused in ("/pdf/other.fr", "/pdf/../build/other.fr.pdf", "/pdf/"):
            assert get(refused)[0] == 404, refused
    finally:
        server.shutdown()
        server.server_close()


def test_watching_a_handout_draws_its_pages_and_opens_the_browser(tmp_path, monkeypatch):
    shutil.copytree(LIBRARY, tmp_path / "sources", ignore=shutil.ignore_patterns("irregular*", "warhammer*"))
    project = Project.at(tmp_path / "sources")
    opened, said = [], []
    monkeypatch.setattr("webbrowser.open", lambda address: opened.append(address) or True)
    watcher = watch.Watcher(project, (), ("en",), scale=0.2, handouts=("wab2-english-hundred-years-war",))
    stop = threading.Event()
    stop.set()  # build once, serve, open the browser, then stop instead of waiting for a save
    watcher.run(port=0, announce=said.append, stop=stop, open_browser=True)
    _, pages, problems = watcher.state.snapshot()
    assert problems == [] and list(pages) == ["wab2-english-hundred-years-war.en"]
    assert (project.build / "preview" / pages["wab2-english-hundred-years-war.en"][0]).is_file()
    assert watcher.state.pdf("wab2-english-hundred-years-war.en") == (
        project.build / "handouts" / "wab2-english-hundred-years-war.en.pdf"
    )
    assert len(opened) == 1 and said == [f"live preview: {opened[0]} (Ctrl-C to stop)"]


def test_a_saved_catalogue_rebuilds_its_language_first(project):
    sources = project.sources
    alpha = sources / "alpha.yaml"
    assert watch.edited_languages([sources / "i18n" / "alpha.en.po"], alpha) == ("en",)
    assert (
        watch.edited_languages([sources / "i18n" / "beta.en.po", alpha, sources / "i18n" / "alpha.de.po~"], alpha) == ()
    )
    assert watch.edited_languages([sources / "handouts" / "i18n" / "alpha.en.po"], alpha) == ()


def test_watching_a_sheet_draws_every_language_it_has_and_says_which_it_leaves_out(tmp_path):
    """`watch` built the canonical language only (#45): every language the sheet has is drawn, its own first; one in
    progress is left out and said, once; saving its catalogue draws it first (the translator's page)."""
    shutil.copytree(LIBRARY, tmp_path / "sources")
    project = Project.at(tmp_path / "sources")
    assert run_qrs("--sources", str(project.sources), "i18n", "update", "shadow-war", "--lang", "de").returncode == 0
    said = []
    watcher = watch.Watcher(project, ("shadow-war",), scale=0.2, on_note=said.append)
    assert watcher.rebuild(watcher.watched()) == []
    assert list(watcher.state.snapshot()[1]) == ["shadow-war.fr", "shadow-war.en"]
    assert (
        len(said) == 1
        and "sources/i18n/shadow-war.de.po: 'de' is in progress (" in said[0]
        and "not watched; 'qrs watch shadow-war --lang de --allow-fallback'" in said[0]
    ), said
    catalogue = project.sources / "i18n" / "shadow-war.en.po"
    assert watcher.changed([catalogue]) == [] and len(said) == 1  # said once, not at every save
    assert sorted(watcher.state.snapshot()[1]) == ["shadow-war.en", "shadow-war.fr"]


def test_open_without_a_browser_says_so(tmp_path, monkeypatch):
    """--open where no browser can be found was silent (#45): the watch says so, with the address to open."""
    shutil.copytree(FIXTURES / "sheets", tmp_path / "sources")
    project = Project.at(tmp_path / "sources")
    monkeypatch.setattr("webbrowser.open", lambda address: False)
    said = []
    watcher = watch.Watcher(project, scale=0.2)
    monkeypatch.setattr(watch.Watcher, "rebuild", lambda self, sources, changed=(): [])  # serving is what is tested
    stop = threading.Event()
    stop.set()
    watcher.run(port=0, announce=said.append, stop=stop, open_browser=True)
    address = said[0].removeprefix("live preview: ").removesuffix(" (Ctrl-C to stop)")
    assert said[1:] == [f"no web browser found to open it: open {address} in one yourself"], said


def test_the_server_sends_only_the_images_it_drew(tmp_path):
    """A file put in build/preview/ by something else is not served (#35, point 21)."""
    folder = tmp_path / "preview"
    folder.mkdir()
    (folder / "wab2.fr-1.png").write_bytes(b"\x89PNG drawn")
    (folder / "notes.png").write_bytes(b"put there by hand")
    assert preview_server.served_file(folder, "/files/notes.png", {"wab2.fr-1.png"}) is None
    assert (
        preview_server.served_file(folder, "/files/wab2.fr-1.png", {"wab2.fr-1.png"})
        == (folder / "wab2.fr-1.png").resolve()
    )
    state = preview_server.State()
    state.update({"wab2.fr": ["wab2.fr-1.png"]}, [])
    server = preview_server.serve(folder, state, port=0)
    try:
        for name, status in (("wab2.fr-1.png", 200), ("notes.png", 404)):
            connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
            connection.request("GET", f"/files/{name}")
            assert connection.getresponse().status == status, name
            connection.close()
    finally:
        server.shutdown()
        server.server_close()


def test_silent_connections_are_closed_and_bounded(tmp_path, monkeypatch):
    """3,000 slow connections once held 3,000 threads open (#35, point 21): a silent one is closed after the
    handler's timeout, and past MAX_CONNECTIONS at once a connection is closed at once."""
    import socket
    import threading

    monkeypatch.setattr(preview_server.Handler, "timeout", 0.5)
    state = preview_server.State()
    server = preview_server.serve(tmp_path / "preview", state, port=0)
    port = server.server_address[1]
    silent = []
    try:
        before = threading.active_count()
        for _ in range(preview_server.MAX_CONNECTIONS + 20):
            silent.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        for connection in silent:  # each is closed by the server: an empty read, not a wait of 10 s
            assert connection.recv(1) == b""
        assert threading.active_count() <= before + preview_server.MAX_CONNECTIONS
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/version")
        assert connection.getresponse().status == 200
        connection.close()
    finally:
        for connection in silent:
            connection.close()
        server.shutdown()
        server.server_close()


def test_a_port_in_use_is_said_with_the_way_out():
    """A port in use (#34): the message says to give another, or --port 0."""
    import socket

    from tests.conftest import run_qrs

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        done = run_qrs("watch", "wab2", "--port", str(taken.getsockname()[1]))
    finally:
        taken.close()
    assert done.returncode == 64 and "--port 0 for any free one" in done.stderr, done.stderr


def test_ctrl_c_stops_the_watch_with_its_exit_code_and_qrs_message(tmp_path):
    """Ctrl-C in qrs watch exited 0 with the watch library's own log line (#34): 130, as the README says."""
    import signal
    import subprocess
    import sys

    from tests.conftest import FIXTURES, ROOT, ctrl_c_heard

    command = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "--sources",
            str(FIXTURES),
            "--build-dir",
            str(tmp_path),
            "watch",
            "every-block",
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        preexec_fn=ctrl_c_heard,
    )
    line = command.stdout.readline()
    while line and not line.startswith("wrote "):  # the first build is done: the watch is waiting for saves
        line = command.stdout.readline()
    command.send_signal(signal.SIGINT)
    out, err = command.communicate(timeout=60)
    assert command.returncode == 130, out + err
    assert "interrupted: the watch stopped" in err and "KeyboardInterrupt" not in err, err


def test_a_client_that_hangs_up_is_no_error_and_slow_clients_lock_no_one_out(tmp_path, monkeypatch, capsys):
    """Issue #49 item 4: a browser's reload hung up with a traceback each time; 32 clients each sending a header
    line every 4 s were never silent for 10 s and locked a browser out. Now a request's whole head has a deadline,
    the slowest head makes room for a new client, and a hang-up says nothing."""
    import socket
    import time

    monkeypatch.setattr(preview_server, "HEAD_SECONDS", 3.0)
    state = preview_server.State()
    server = preview_server.serve(tmp_path / "preview", state, port=0)
    port = server.server_address[1]
    slow = []
    try:
        for _ in range(preview_server.MAX_CONNECTIONS):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(b"GET /version HTTP/1.1\r\nX-Slow: 1\r\n")  # a head never finished
            slow.append(connection)
        for _ in range(3):  # the browser comes while they crawl on, a header line at a time
            for connection in slow:
                try:
                    connection.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass
            browser = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            browser.request("GET", "/version")
            assert browser.getresponse().status == 200
            browser.close()
            time.sleep(1.0)
        hung_up = socket.create_connection(("127.0.0.1", port), timeout=5)
        hung_up.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        hung_up.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        hung_up.close()  # a reset before the answer is read
        time.sleep(0.5)
    finally:
        for connection in slow:
            connection.close()
        server.shutdown()
        server.server_close()
    assert "Traceback" not in capsys.readouterr().err


def test_the_watch_serves_the_loopback_address_unless_host_says_otherwise(tmp_path, monkeypatch):
    """docs/safety.md: `qrs watch` is reached from this machine only, unless --host names another address."""
    from generator.cli.main import main

    shutil.copytree(FIXTURES / "sheets", tmp_path / "sources")
    bound = []

    def serving(folder, state, host="127.0.0.1", port=watch.DEFAULT_PORT):
        server = real_serve(folder, state, host, 0)  # any free port: the address is what is tested
        bound.append(server.server_address[0])
        return server

    def at_once(self, *args, stop=None, **kwargs):  # serve, then stop as a Ctrl-C would, without building
        stopped = threading.Event()
        stopped.set()
        return real_run(self, *args, stop=stopped, **kwargs)

    real_serve, real_run = watch.serve, watch.Watcher.run
    monkeypatch.setattr(watch, "serve", serving)
    monkeypatch.setattr(watch.Watcher, "run", at_once)
    monkeypatch.setattr(watch.Watcher, "rebuild", lambda self, sources, changed=(): [])
    for given in ([], ["--host", "0.0.0.0"]):
        main(["--sources", str(tmp_path / "sources"), "watch", "tiny-card", "--port", "0", *given])
    assert bound == ["127.0.0.1", "0.0.0.0"]
