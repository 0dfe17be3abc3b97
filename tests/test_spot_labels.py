"""An option list that takes a spot says its options in words: the spot in a label goes to
the cursor's facts line, wherever the label names it, unless two labels would then read
the same."""

from __future__ import annotations

from wargame_cli.ui.pointing import without_spot, without_spots


def test_a_spot_is_taken_out_wherever_the_label_names_it():
    assert without_spot('Toward Fay (2.09,8.91): 4.0" from Dot') == 'Toward Fay: 4.0" from Dot'
    assert without_spot("3.5,7.5: in Crates (hard cover)") == "In Crates (hard cover)"
    assert without_spot("Toward the hill (lead to 12,4.5)") == "Toward the hill"
    assert without_spot("Stay where it is") == "Stay where it is"


def test_labels_that_would_read_the_same_keep_their_spots():
    labels = ["1.5,0.5: in the open", "2.5,0.5: in the open", "3.5,7.5: in Crates"]
    assert without_spots(labels) == [*labels[:2], "In Crates"]
