"""A block type is its model and its template (issue #43 item 4): a toy type added to a copy of the package as one
module and one template, and nothing else, is read, checked, described in the schema, built, as a PDF and as a
web page, and shown by `qrs new` (an example derived from its model)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

from pypdf import PdfReader

from tests.conftest import ROOT

MODEL = '''
"""A toy block type: one sentence in a box."""

from typing import Literal

from pydantic import Field

from generator.model.base import Text
from generator.model.blocks.block import BlockBase


class CalloutBlock(BlockBase):
    """One sentence, boxed."""

    type: Literal["callout"]
    says: Text = Field(description="The sentence the box prints.")
'''

TEMPLATE = '<p class="callout u">{{ t(block.says) }}</p>\n'

SHEET = """\
sheet: toy
game: Toy Game
lang: en
sections:
  - id: rules
    title: Rules
    blocks:
      - id: warning
        type: callout
        title: Mind the gap
        says: Roll **two** dice and keep the highest.
      - id: plain
        type: text
        content: [{p: An ordinary paragraph after it.}]
"""


def test_a_toy_block_type_needs_only_its_model_and_its_template(tmp_path):
    copy = tmp_path / "qrs"
    shutil.copytree(ROOT / "generator", copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "templates", copy / "templates")
    (copy / "generator" / "model" / "blocks" / "callout.py").write_text(textwrap.dedent(MODEL), encoding="utf-8")
    (copy / "templates" / "blocks" / "callout.html.j2").write_text(TEMPLATE, encoding="utf-8")
    sources = tmp_path / "library" / "sources"
    sources.mkdir(parents=True)
    (sources / "toy.yaml").write_text(SHEET, encoding="utf-8")
    build = tmp_path / "library" / "build"

    def qrs(*args: str) -> subprocess.CompletedProcess:
        environment = dict(os.environ, PYTHONPATH=str(copy), QRS_JOBS="1")
        return subprocess.run(
            [sys.executable, "-m", "generator", "--sources", str(sources), "--build-dir", str(build), *args],
            cwd=copy,
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
        )

    ran = qrs("build", "toy", "--format", "pdf", "--format", "html")
    assert ran.returncode == 0, ran.stderr
    pdf_text = " ".join(page.extract_text() for page in PdfReader(build / "toy.en.pdf").pages)
    assert "Roll two dice and keep the highest." in pdf_text and "Mind the gap" in pdf_text
    page = (build / "html" / "toy.en.html").read_text(encoding="utf-8")
    assert '<p class="callout u">Roll <strong>two</strong> dice and keep the highest.</p>' in page
    assert 'class="block block-callout"' in page and "An ordinary paragraph after it." in page

    schema = qrs("schema")
    assert schema.returncode == 0, schema.stderr
    written = json.loads((tmp_path / "library" / "schema" / "sheet.schema.json").read_text(encoding="utf-8"))
    callout = written["$defs"]["CalloutBlock"]["properties"]["says"]
    assert callout["description"] == "The sentence the box prints."

    bad = sources / "toy.yaml"
    bad.write_text(SHEET.replace("type: callout", "type: callot"), encoding="utf-8")
    refused = qrs("check", "toy")
    assert refused.returncode == 2 and "did you mean 'callout'?" in refused.stderr, refused.stderr

    bad.write_text(SHEET, encoding="utf-8")
    new = qrs("new", "started", "--game", "Toy Game", "--lang", "fr")
    assert new.returncode == 0, new.stderr
    started = (sources / "started.yaml").read_text(encoding="utf-8")
    assert "  - id: more-blocks\n    title: Autres blocs\n" in started
    assert re.search(r'^ {8}says: "Texte d\'exemple" +# The sentence the box prints\.$', started, re.M), started
    built = qrs("build", "started")
    assert built.returncode == 0, built.stderr
    printed = " ".join(page.extract_text() for page in PdfReader(build / "started.fr.pdf").pages)
    assert "AUTRES BLOCS" in printed and "Texte d’exemple" in printed  # French typography: an apostrophe
