"""Counts in messages."""

from prep.cli.plain import counted


def test_counted_nouns():
    assert counted(1, "day") == "1 day"
    assert counted(0, "day") == "0 days"
    assert counted(2, "category") == "2 categories"
    assert counted(1, "category") == "1 category"
    assert counted(3, "key") == "3 keys"
    assert counted(2, "question") == "2 questions"
    assert counted(2, "analysis", "analyses") == "2 analyses"
