"""Digests of the project's files (generator.digests): a file is hashed only within the limit of its kind, so a
planted sparse file of gigabytes is not read whole to be hashed (#35, point 13); the build then refuses it."""

from __future__ import annotations

import os
import tracemalloc

import pytest

from generator import digests, files


@pytest.mark.parametrize(
    "name, limit",
    [
        ("sheet.yaml", files.MAX_SOURCE_BYTES),
        ("sheet.en.po", files.MAX_CATALOGUE_BYTES),
        ("sheet.fr.pdf", digests.MAX_OTHER_BYTES),
    ],
)
def test_a_file_over_its_kinds_limit_is_not_read_to_be_hashed(tmp_path, name, limit):
    planted = tmp_path / name
    planted.touch()
    os.truncate(planted, 4 * limit)  # sparse: no disk block is written
    tracemalloc.start()
    try:
        found = digests.Digests().file(planted)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == digests.ABSENT and peak < limit


def test_a_file_within_its_limit_is_hashed(tmp_path):
    kept = tmp_path / "sheet.yaml"
    kept.write_bytes(b"sheet: x\n")
    assert digests.Digests().file(kept) == "158b367587db961b22aebd68b197d74d815e0f28877d699305edc58c2c24ecdf"
