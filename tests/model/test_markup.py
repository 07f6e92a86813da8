from markupsafe import Markup

from generator.model import markup


def render(text: str) -> str:
    return str(markup.to_html(markup.parse(text), lambda s: s, lambda key, shown: shown or key.upper()))


def test_bold_italic_keyword_footnote():
    assert render("**a** *b* {kw} {kw|shown} c[^1]") == (
        '<strong>a</strong> <em>b</em> <span class="kw">KW</span> <span class="kw">shown</span> c<sup class="fn">1</sup>'
    )


def test_text_is_escaped():
    assert render("a < b & c") == "a &lt; b &amp; c"
    assert isinstance(markup.to_html(markup.parse("x"), str, str), Markup)


def test_literal_star_and_brace():
    assert render(r"\* note \{x\}") == "* note {x}"
    assert render("(*) alone") == "(*) alone"


def test_html_tags_are_detected():
    assert markup.html_tag_at("<script>alert(1)</script>") == 0
    assert markup.html_tag_at("a <b>bold</b>") == 2
    assert markup.html_tag_at("<= 20 et 3 < 4") is None


def test_a_less_than_sign_that_opens_no_tag_is_text():
    assert markup.html_tag_at("if a < b and b > c") is None
    assert markup.html_tag_at("a < script >") is None  # an HTML parser reads it as text too
    assert render("if a < b") == "if a &lt; b"


def test_an_escaped_less_than_sign_prints_as_itself_and_opens_no_tag():
    text = "Select one friendly \\<HIVE FLEET> unit"  # 9th edition's keyword, as a roster's import writes it
    assert markup.html_tag_at(text) is None
    assert "&lt;HIVE FLEET&gt;" in render(text)
    assert markup.html_tag_at("a <HIVE FLEET> unit") == 2  # unescaped, it is refused as ever


def test_plain_text_is_what_prints():
    tokens = markup.parse("*Corrompu* – {kw}[^2]")
    assert markup.to_plain(tokens, str, lambda key, shown: "Savage") == "Corrompu – Savage2"


def test_a_result_reference_is_its_own_token_and_prints_the_result_name():
    tokens = markup.parse("après une {result:injuries/concussion} ou un {result:injuries/out|K.-O.}")
    assert [token for token in tokens if isinstance(token, markup.ResultRef)] == [
        markup.ResultRef("injuries/concussion", None),
        markup.ResultRef("injuries/out", "K.-O."),
    ]
    names = {"injuries/concussion": "Commotion"}.get
    assert markup.to_plain(tokens, str, lambda key, shown: shown or key, names) == "après une Commotion ou un K.-O."


def test_a_line_break_of_the_source_is_printed_as_one_in_html_and_kept_in_plain_text():
    assert render('Falling less than 3" – no effect\n**Falling 3" or more**\n{kw}') == (
        'Falling less than 3&#34; – no effect<br><strong>Falling 3&#34; or more</strong><br><span class="kw">KW</span>'
    )
    assert markup.to_plain(markup.parse("a\nb"), str, str) == "a\nb"


def test_a_link_prints_its_text_with_its_address_as_typed():
    assert render("Voir [les **règles**](https://example.com/a-1?b=(2)&c) ici") == (
        'Voir <a class="link" href="https://example.com/a-1?b=(2)&amp;c">les <strong>règles</strong></a> ici'
    )
    assert markup.to_plain(markup.parse("[the designer](mailto:a@example.com)."), str, str) == "the designer."
    assert markup.links("[a](https://x.org/1) and [b](mailto:b@x.org)") == ["https://x.org/1", "mailto:b@x.org"]


def test_a_footnote_mark_and_an_escaped_bracket_are_not_links():
    assert markup.links("a[^1](https://x.org) \\[b\\](https://x.org)") == []


def test_a_link_to_another_scheme_or_holding_marks_is_a_problem():
    def problem(text: str) -> str | None:
        (link,) = [token for token in markup.parse(text) if isinstance(token, markup.Link)]
        return markup.link_problem(link)

    assert problem("[rules](https://example.com/rules)") is None and problem("[me](mailto:me@x.org)") is None
    assert "starts with 'javascript:'" in problem("[x](javascript:alert(1))")
    assert "starts with 'file:'" in problem("[x](file:///etc/passwd)")
    assert "names no scheme" in problem("[x](rules.pdf)")
    assert "no address after https://" in problem("[x](https://)")
    assert "keyword mark" in problem("[{savage}](https://x.org)")


def test_an_address_keeps_every_character_and_is_never_hyphenated_nor_broken_after_its_hyphens():
    from generator.model import typography

    html = str(
        markup.to_html(markup.parse(typography.quotes("voir https://x.org/l'a-1?b-2 !", "fr")), typography.french, str)
    )
    assert html == (
        'voir <span class="url">https://x.org/l&#39;a<span class="nb">-1</span>?b<span class="nb">-2</span>'
        "</span>\u202f!"
    )
    assert markup.to_plain(markup.parse("see https://x.org/v1-2?a, then"), typography.english, str) == (
        "see https://x.org/v1-2?a, then"
    )  # no en dash in 1-2, and the comma is the sentence's
