"""A text printed in parts (generator.output.completeness.printed_end): a unit cut between its lines is found across
the top of the next column, what that top repeats between its parts; a text with a part lost is not."""

from __future__ import annotations

from generator.output.completeness import MAX_GAP, MIN_PART, printed_end

RULE = "Amodelthatmovesthrougharuinhalvesitsmoveforthepartofthemovespentinsideit,roundingup."  # squeezed
OTHER = "Fogcountsaslightcoverforeverymodelmorethansixinchesfromtheonethattargetsit."
TOP = "HAZARDS(cont.)Mishaps(cont.)D63–4(cont.)"  # what the next column repeats above the rest of a cut row


def test_a_text_printed_whole_ends_where_it_ends():
    page = "Title" + RULE + OTHER
    assert printed_end(page, RULE, 0) == len("Title" + RULE)


def test_a_text_cut_between_columns_is_found_across_what_the_next_column_repeats():
    cut = 40
    page = "Title" + RULE[:cut] + TOP + RULE[cut:] + OTHER
    assert printed_end(page, RULE, 0) == len("Title" + RULE + TOP)
    assert printed_end(page, OTHER, printed_end(page, RULE, 0)) == len(page)  # the block's next fact, after it


def test_a_text_with_a_part_lost_is_missing():
    page = "Title" + RULE[:40] + TOP + RULE[50:] + OTHER
    assert printed_end(page, RULE, 0) == -1


def test_a_part_shorter_than_three_lines_or_further_than_a_column_s_top_is_no_part():
    assert printed_end(RULE[: MIN_PART - 1] + TOP + RULE[MIN_PART - 1 :], RULE, 0) == -1
    assert printed_end(RULE[:40] + "x" * (MAX_GAP + 1) + RULE[40:], RULE, 0) == -1
    assert printed_end(RULE[:40] + "x" * MAX_GAP + RULE[40:], RULE, 0) > 0


def test_the_same_sentence_printed_before_does_not_hide_the_parts_of_the_text():
    # another block prints the text's first sentence (and more of it) earlier: its parts are found after it
    text = RULE + OTHER
    page = RULE + "Elsewhere" + text[:100] + TOP + text[100:]
    assert printed_end(page, text, 0) == len(page)
