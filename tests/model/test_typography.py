from generator.model import typography as t


def test_french_spacing_and_apostrophes():
    assert t.french("Impossible! l'unité: « oui »") == "Impossible\u202f! l\u2019unité\u00a0: «\u00a0oui\u00a0»"


def test_french_leaves_ratios_and_inches_alone():
    assert t.french('ratio 2:1 à 6" de distance') == 'ratio 2:1 à 6" de distance'


def test_minus_sign_before_numbers_en_dash_in_ranges():
    assert t.common("-1 et 2-5 et Contre-attaque") == "\u22121 et 2\u20135 et Contre-attaque"


def test_english_quotes_and_no_french_spaces():
    assert t.english('say "hold": at 6" range!') == 'say \u201chold\u201d: at 6" range!'


def test_unknown_language_gets_common_rules_only():
    assert t.for_language("de")("a -1 : b") == "a \u22121 : b"


def test_a_true_minus_before_dice():
    assert t.common('fuite (-D6ps), -D3 PV, -D6" et -1D6') == 'fuite (\u2212D6ps), \u2212D3 PV, \u2212D6" et \u22121D6'
    assert t.common("Contre-D3") == "Contre-D3"  # a hyphen inside a word stays


def test_a_true_minus_before_a_letter_standing_for_a_number_and_before_infinity():
    """Issue #48: -N, -X and -∞ take the minus their numbers take, where a sheet prints both side by side."""
    assert (
        t.common('-N to hit, -X" move, (-N), range -∞ to -1')
        == '\u2212N to hit, \u2212X" move, (\u2212N), range \u2212\u221e to \u22121'
    )
    assert t.french("Modificateur : -N.") == "Modificateur\u00a0: \u2212N."


def test_a_hyphen_before_a_word_or_inside_one_stays_a_hyphen():
    assert (
        t.common("Anti-Tank, X-Wing, T-N, army book -V8.8, a -Tank rule")
        == "Anti-Tank, X-Wing, T-N, army book -V8.8, a -Tank rule"
    )


def test_english_quotes_and_apostrophes_beside_markup():
    assert t.quotes("'Hammered' and the Heroes' rule", "en") == "\u2018Hammered\u2019 and the Heroes\u2019 rule"
    assert (
        t.quotes("{fear}'s test, '**Hold**', say \"*now*\"", "en")
        == "{fear}\u2019s test, \u2018**Hold**\u2019, say \u201c*now*\u201d"
    )
    assert t.quotes("at 6' and 6\" range", "en") == "at 6' and 6\" range"  # feet and inches


def test_french_apostrophe_before_keywords_and_markup_keys_left_as_typed():
    assert t.quotes("armé d'{archaic-missiles}, l'**ost**", "fr") == "armé d\u2019{archaic-missiles}, l\u2019**ost**"
    assert t.quotes("{d'arc|l'arc}", "fr") == "{d'arc|l\u2019arc}"
    assert t.quotes("'Hammered'", "fr") == "'Hammered'"  # single quotes are not French quotation marks


def test_a_name_printed_as_written_keeps_its_own_typography():
    """'Ere We Go! in a French sheet took a French space before its '!' (#34): the names a sheet keeps as written
    (`untranslatable`) are left as they are, the French around them typeset as French."""
    from generator.model import typography

    french = typography.keeping(["'Ere We Go!"], typography.for_language("fr"))
    assert french("Criez 'Ere We Go! puis chargez !") == "Criez 'Ere We Go! puis chargez\u202f!"
    assert typography.keeping([], typography.french) is typography.french
