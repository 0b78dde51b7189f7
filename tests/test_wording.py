"""Counts and suggestions in messages."""

from prep.cli.plain import counted


def test_counted_nouns():
    assert counted(1, "day") == "1 day"
    assert counted(0, "day") == "0 days"
    assert counted(2, "category") == "2 categories"
    assert counted(1, "category") == "1 category"
    assert counted(3, "key") == "3 keys"
    assert counted(2, "question") == "2 questions"
    assert counted(2, "analysis", "analyses") == "2 analyses"


def test_did_you_mean_suggests_only_what_is_close():
    from prep.suggest import did_you_mean

    ids = ["intro-personal-ownership-scope", "kv-cache-mechanics", "mqa-gqa-kv-cache", "dp-vs-mp"]
    assert did_you_mean("nope", ids) is None
    assert did_you_mean("dp-vs-mpp", ids) == "did you mean 'dp-vs-mp'?"
    assert did_you_mean("kv-cache", ids) == "did you mean 'kv-cache-mechanics'?"
