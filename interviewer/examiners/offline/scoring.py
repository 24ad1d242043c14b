"""The calibrated offline score, expressed through the rubric rows so the feedback adds up.

The matcher reports raw evidence per key point. A small linear model, fitted on
graded answers by `tools/calibrate.py` and shipped as `calibration.json`, turns
that evidence into points:

    points = clip(b1*C + b2*C*specificity + b3*C*density + b4*[C > 0] + b5*sqrt(10*C), 0, 10)

where C is the covered share of the rubric weight on 0..10 (after evidence is
capped per sentence), specificity counts numbers, formulas and named methods,
and density is the share of the answer's sentences that carry evidence (so
rambling dilutes it); the square root lets partial coverage count for more than
its share, as examiners grade. Penalties are the rubric's misconception penalties times
a fitted scale, and a fitted penalty per contradicted key point.

Why a clipped linear model: it has six numbers a reader can check, is monotone
in every piece of evidence, cannot reward an answer with no evidence (every
term is zero when C is zero), and our few hundred graded answers cannot
support a richer model without overfitting. The points are shown by scaling
the criterion rows (in proportion to their raw evidence, never above a row's
maximum), so rows minus penalties equal the header score.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from interviewer.examiners.grade import CriterionScore, DetectedMisconception
from interviewer.i18n import tr

if TYPE_CHECKING:
    from interviewer.examiners.offline.examiner import Analysis
    from interviewer.examiners.offline.resemblance import Lift

COEFFICIENTS = Path(__file__).with_name("calibration.json")
FEATURES = ("coverage", "coverage_x_specificity", "coverage_x_density", "any_evidence", "sqrt_coverage")
MAX_CONTRADICTIONS = 3


@dataclass(frozen=True)
class Model:
    """Coefficients of the calibrated score (see the module docstring)."""

    coef: tuple[float, ...]
    misconception_scale: float
    contradiction_penalty: float

    def to_json(self) -> dict[str, object]:
        return {
            "features": list(FEATURES),
            "coef": [round(c, 4) for c in self.coef],
            "misconception_scale": round(self.misconception_scale, 4),
            "contradiction_penalty": round(self.contradiction_penalty, 4),
        }


IDENTITY = Model((1.0, 0.0, 0.0, 0.0, 0.0), 1.0, 1.0)  # the uncalibrated score: 10 x covered weight


@lru_cache(maxsize=1)
def load_model(path: Path = COEFFICIENTS) -> Model:
    """The shipped coefficients; a missing file means the plain covered-weight score."""
    if not path.exists():
        return IDENTITY
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{path}: features {data['features']} do not match {list(FEATURES)}; rerun tools/calibrate.py")
    return Model(tuple(float(c) for c in data["coef"]), float(data["misconception_scale"]), float(data["contradiction_penalty"]))


def features(a: Analysis) -> tuple[float, ...]:
    total = sum(c.max for c in a.criteria)
    cov = 10.0 * sum(min(c.score, c.max) for c in a.criteria) / total if total else 0.0
    return (cov, cov * a.specificity, cov * a.density, 1.0 if cov > 0 else 0.0, math.sqrt(10.0 * cov))


def row_points(a: Analysis, model: Model) -> float:
    """Points the criterion rows will show (0..10), before penalties."""
    total = sum(c.max for c in a.criteria)
    if not total:
        return 0.0
    reachable = 10.0 * sum(c.max for c in a.criteria if c.score > 0) / total
    x = features(a)
    raw = sum(b * v for b, v in zip(model.coef, x, strict=True))
    if a.misconceptions or a.contradictions:
        raw = min(raw, x[0])  # an answer caught in an error gets no benefit of the doubt: never above plain coverage
    return max(0.0, min(reachable, 10.0, raw))


def penalties(a: Analysis, model: Model) -> tuple[float, float]:
    """(listed misconceptions, contradictions) as they will be subtracted."""
    listed = sum(round(m.penalty * model.misconception_scale, 1) for m in a.misconceptions)
    contra = round(model.contradiction_penalty, 1) * min(len(a.contradictions), MAX_CONTRADICTIONS)
    return listed, contra


def predict(a: Analysis, model: Model) -> float:
    """The overall score the grade will show (before any hint penalty)."""
    listed, contra = penalties(a, model)
    return max(0.0, min(10.0, row_points(a, model) - listed - contra))


def _scale_rows(criteria: list[CriterionScore], target: float) -> list[CriterionScore]:
    """Rows scaled by one factor k in proportion to their evidence, each capped at its maximum,
    so they sum to `target` (a weight total): exact water-filling, rows capped in order of max/score.
    A row left at 0 keeps no evidence."""
    live = sorted((c for c in criteria if c.score > 0), key=lambda c: c.max / c.score)
    capped, rest = 0.0, sum(c.score for c in live)
    k = 0.0
    for c in live:
        k = (target - capped) / rest if rest > 0 else 0.0
        if k * c.score <= c.max:
            break
        capped += c.max
        rest -= c.score
        k = c.max / c.score
    scaled = [c.model_copy(update={"score": round(min(c.max, k * c.score), 3)}) for c in criteria]
    # a row scaled to nothing (an answer to another question settles at 0) quotes nothing: a quote beside
    # a 0 would read as credit given
    return [c if c.score > 0 else c.model_copy(update={"evidence": [], "uncertain": False}) for c in scaled]


def _with_lift(a: Analysis, points: float, lift: Lift) -> tuple[list[CriterionScore], float]:
    """Rows with the resemblance credit: empty rows quote the sentence that resembles their statement
    (uncertain), and the points rise toward the lift's, never above what the credited rows can show.
    A lift that lowers keeps the rows as they are; they scale down to its points."""
    from interviewer.examiners.offline.resemblance import SOFT_CREDIT

    if not lift.raised:
        return a.criteria, min(points, lift.points)

    rows = [
        c.model_copy(update={"score": round(SOFT_CREDIT * c.max, 3), "evidence": [lift.soft[c.id]], "uncertain": True})
        if c.score == 0 and c.id in lift.soft else c
        for c in a.criteria
    ]
    total = sum(c.max for c in rows)
    reachable = 10.0 * sum(c.max for c in rows if c.score > 0) / total if total else 0.0
    return rows, max(points, min(lift.points, reachable, 10.0))


def calibrated(
    a: Analysis, lang: str, model: Model | None = None, lift: Lift | None = None
) -> tuple[list[CriterionScore], list[DetectedMisconception]]:
    """Criterion rows and penalties whose sum is the calibrated score (raised by `lift`, if any)."""
    model = model or load_model()
    total = sum(c.max for c in a.criteria)
    criteria, points = a.criteria, row_points(a, model)
    if lift is not None:
        criteria, points = _with_lift(a, points, lift)
    rows = _scale_rows(criteria, points / 10.0 * total) if total else criteria
    found = [m.model_copy(update={"penalty": round(m.penalty * model.misconception_scale, 1)}) for m in a.misconceptions]
    statements = {c.id: c.statement for c in a.criteria}
    for n, c in enumerate(a.contradictions):
        found.append(
            DetectedMisconception(
                id=f"contradicts-{c.key_point}",
                claim=tr("contradicts key point {id}", lang).format(id=c.key_point),
                quote=c.quote,
                correction=statements.get(c.key_point, ""),
                penalty=round(model.contradiction_penalty, 1) if n < MAX_CONTRADICTIONS else 0.0,
                key_point=c.key_point,
            )
        )
    return rows, found


__all__ = ["FEATURES", "IDENTITY", "Model", "calibrated", "features", "load_model", "penalties", "predict", "row_points"]
