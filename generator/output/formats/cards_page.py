"""The cards' web page: a deck at its true size on a grid, one self-contained page a home printer prints at 100 %:
build/html/handouts/<id>.cards-<size>.<lang>.html, build/html/<sheet>.cards-<size>.<section>.<lang>.html, listed by
build/html/index.html. `--cards SIZE --format html` asks for it; its options and deck are the cards format's
(generator.output.formats.cards)."""

from __future__ import annotations

from pathlib import Path

from generator.output.formats import Rendered, cards, file_path

HELP = "the cards' web page in build/html/ (--cards SIZE --format html, or a handout's cards:)"
FOLDER = "html"  # under the build folder, beside the web pages
INSTEAD_OF = "html"  # --cards SIZE prints the web page as cards
NAME = "cards-html"
OPTIONS: tuple = ()  # the cards format's, which `own_options` reads as that format does
own_options, declared, from_declared = cards.own_options, cards.declared, cards.from_declared


def refused(targets: list, options) -> str | None:
    return cards.refused(targets, options, NAME)


def variant(options) -> str | None:
    """As the deck's PDF is named, without backs (a page has none)."""
    return cards.named(options.of(NAME), options, backs=False)


def path(project, target, lang: str, variant: str | None = None) -> Path:
    return file_path(project, FOLDER, target, lang, variant, "html")


def render(project, prepared, options) -> Rendered:
    return Rendered(cards.deck_bytes(project, prepared, options, options.of(NAME), page=True))


def finished(project) -> Path | None:
    """After a build of decks' pages: build/html/index.html lists them with the other pages."""
    from generator.output import web_index

    return web_index.write_index(project)
