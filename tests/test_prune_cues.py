"""tools/prune_cues.py keeps the key-point alternatives the graded answers need, and only those.

The whole run (every graded answer read twice or more) takes minutes; these tests check its parts on
small inputs. The run itself checks that the pruned bank reads every usage answer as the full one did.
"""

from __future__ import annotations

from pathlib import Path

from interviewer.bank.loader import load_bank
from interviewer.examiners.offline.cues import AnswerIndex, compile_cue
from interviewer.examiners.offline.text import split_sentences
from tools.prune_cues import cover, drop_repeats, prune_cue, recording


def test_cover_keeps_the_fewest_alternatives_that_land_everywhere() -> None:
    events = [frozenset({"reduc", "lower"}), frozenset({"reduc"}), frozenset({"lower", "shrink"}), frozenset({"reduc", "shrink"})]
    chosen = cover(events, "en")
    assert all(e & chosen for e in events)
    assert len(chosen) == 2


def test_cover_keeps_an_alternative_that_holds_its_own_negation() -> None:
    # "シグナルがない" is the claim itself; matched by 除外 alone, its ない would be read as a denial
    chosen = cover([frozenset({"シグナルがない", "除外"}), frozenset({"除外"})], "ja")
    assert chosen == {"シグナルがない", "除外"}


def test_prune_cue_keeps_needed_alternatives_and_those_the_lexicon_speaks_for() -> None:
    assert prune_cue("baseline + varian|noise|spread", "en", {"baseline", "noise"}) == "baseline + noise"
    # "value estimator" is a lexicon phrase of the concept "critic": the written "critic" brought it
    assert prune_cue("critic|judge + remov|drop", "en", {"value estimator", "drop"}) == "critic + drop"
    # a term none of whose alternatives landed (the cue matched through a joint lexicon reading) stays whole
    assert prune_cue("baseline + varian|noise", "en", {"baseline"}) == "baseline + varian|noise"


def test_prune_cue_keeps_a_cue_whose_turned_readings_would_change() -> None:
    # "pessimist" alone is a term about a direction and would start turning ("min + optimist"), which
    # the full term, mostly about something else, never did
    cue = "min + pessimist|monitor|track|log"
    assert prune_cue(cue, "en", {"min", "pessimist"}) == cue


def test_recording_sees_the_alternatives_that_land_in_an_affirmed_sentence() -> None:
    cue = compile_cue("baseline + reduc|lower + varian", "en")
    index = AnswerIndex.build(split_sentences("A baseline lowers the variance. The weather is nice."), False)
    with recording() as events:
        assert index.polar(cue).affirmed
    # per term of the cue (and of its joint lexicon readings): what landed; "reduc" is nowhere in the answer
    assert events[(cue.source, "en")][:3] == [frozenset({"baseline"}), frozenset({"lower"}), frozenset({"varian"})]
    assert "reduc" not in set().union(*events[(cue.source, "en")])
    assert AnswerIndex.polar.__qualname__ == "AnswerIndex.polar"  # the matcher is itself again


def test_drop_repeats_keeps_the_first_of_two_equal_cues(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text('cues:\n  en:\n    - "a + b"\n    - "c"\n    - "a + b"\n  it: ["x", "y", "x"]\n', encoding="utf-8")
    drop_repeats(path)
    assert path.read_text(encoding="utf-8") == 'cues:\n  en:\n    - "a + b"\n    - "c"\n  it: ["x", "y"]\n'


def test_every_key_point_keeps_a_cue_in_every_language() -> None:
    for q in load_bank().questions:
        assert q.rubric is not None
        for kp in q.rubric.key_points:
            for lang in ("en", "it", "ja"):
                assert kp.cues.get(lang), (q.id, kp.id, lang)
