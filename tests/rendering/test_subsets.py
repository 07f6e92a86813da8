from collections import OrderedDict

import weasyprint
from weasyprint.pdf import fonts

from generator.rendering import subsets


def test_a_font_subset_made_before_is_given_again_with_the_same_bytes(monkeypatch):
    monkeypatch.setattr(fonts, "harfbuzz_subset", None)  # WeasyPrint's fontTools path, as without libharfbuzz-subset
    monkeypatch.setattr(subsets, "_kept", OrderedDict())
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1763683200")
    subsets.keep()
    made = []
    real = fonts.subset.Subsetter
    monkeypatch.setattr(fonts.subset, "Subsetter", lambda *args, **kwargs: made.append(1) or real(*args, **kwargs))

    def write(text: str) -> bytes:
        return weasyprint.HTML(string=f"<p>{text}</p>").write_pdf(pdf_identifier=b"qrs")

    first = write("Bonjour ½")
    subsets_made = len(made)
    assert subsets_made >= 1
    assert write("Bonjour ½") == first and len(made) == subsets_made  # the same glyphs of the same font: kept
    write("Adieu ¾")
    assert len(made) > subsets_made  # other glyphs: subset anew
    subsets._kept.clear()
    assert write("Bonjour ½") == first  # what was kept is what fontTools makes


def test_the_kept_subsets_are_bounded(monkeypatch):
    monkeypatch.setattr(fonts, "harfbuzz_subset", None)
    monkeypatch.setattr(subsets, "_kept", OrderedDict())
    monkeypatch.setattr(subsets, "KEPT", 2)
    subsets.keep()
    for text in ("a", "b", "c", "d"):
        weasyprint.HTML(string=f"<p>{text}</p>").write_pdf()
    assert len(subsets._kept) == 2
