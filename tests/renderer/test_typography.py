from generator.renderer import typography as t


def test_french_spacing_and_apostrophes():
    assert t.french("Impossible! l'unité: « oui »") == "Impossible\u202f! l\u2019unité\u00a0: «\u00a0oui\u00a0»"


def test_french_leaves_ratios_and_inches_alone():
    assert t.french('ratio 2:1 à 6" de distance') == 'ratio 2:1 à 6" de distance'


def test_minus_sign_before_numbers_en_dash_in_ranges():
    assert t.common("-1 et 2-5 et Contre-attaque") == "\u22121 et 2\u20135 et Contre-attaque"


def test_english_quotes_and_no_french_spaces():
    assert t.english('say "hold": at 6" range!') == "say \u201chold\u201d: at 6\" range!"


def test_unknown_language_gets_common_rules_only():
    assert t.for_language("de")("a -1 : b") == "a \u22121 : b"
