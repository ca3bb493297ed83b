"""Dice formulas: parsing, exact outcome sets and distributions, seeded rolls, clear errors."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.dice import parse, roll
from generator.engine.rng import Rng
from generator.errors import DelveError, DiceError

# --------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("d6", list(range(1, 7))),
        ("1d6", list(range(1, 7))),
        ("D6", list(range(1, 7))),
        ("2d6", list(range(2, 13))),
        ("2d6+1", list(range(3, 14))),
        ("2d6 + 1", list(range(3, 14))),
        ("3d6x10", list(range(30, 181, 10))),
        ("3d6*10", list(range(30, 181, 10))),
        ("500xd6", list(range(500, 3001, 500))),
        ("d100", list(range(1, 101))),
        ("d%", list(range(1, 101))),
        ("4d6kh3", list(range(3, 19))),
        ("4d6kl3", list(range(3, 19))),
        ("d8-1", list(range(0, 8))),
        ("10-d6", list(range(4, 10))),
        ("d6/2", [0, 1, 2, 3]),
        ("(d4+1)x10", [20, 30, 40, 50]),
        ("d4+1x10", list(range(11, 15))),
        ("(1+2)x3", [9]),
        ("1+2x3", [7]),
        ("2x(3-1)", [4]),
        ("7", [7]),
    ],
)
def test_outcomes(formula: str, expected: list[int]) -> None:
    f = parse(formula)
    assert f.outcomes() == expected
    assert (f.min, f.max) == (expected[0], expected[-1])


def test_d66_is_tens_then_units() -> None:
    expected = [10 * a + b for a in range(1, 7) for b in range(1, 7)]
    outcomes = parse("d66").outcomes()
    assert outcomes == expected
    assert len(outcomes) == 36
    assert all(1 <= int(c) <= 6 for v in outcomes for c in str(v))
    assert (parse("d66").min, parse("d66").max) == (11, 66)
    # Every value is equally likely: two independent d6s, not a 66-sided die.
    assert set(parse("d66").distribution().values()) == {Fraction(1, 36)}


def test_formula_keeps_its_text() -> None:
    assert str(parse("3d6x10")) == "3d6x10"
    assert "3d6x10" in repr(parse("3d6x10"))


def test_parse_is_cached() -> None:
    assert parse("2d6+1") is parse("2d6+1")


# --------------------------------------------------------------------------- exact distributions


@pytest.mark.parametrize(
    ("formula", "value", "probability"),
    [
        ("d6", 1, Fraction(1, 6)),
        ("2d6", 7, Fraction(6, 36)),
        ("2d6", 2, Fraction(1, 36)),
        ("2d6", 12, Fraction(1, 36)),
        ("2d6+1", 8, Fraction(6, 36)),
        ("3d6", 10, Fraction(27, 216)),
        ("3d6x10", 100, Fraction(27, 216)),
        ("3d6x10", 30, Fraction(1, 216)),
        ("500xd6", 1500, Fraction(1, 6)),
        ("d100", 37, Fraction(1, 100)),
        ("d66", 35, Fraction(1, 36)),
        ("4d6kh3", 18, Fraction(21, 1296)),  # three or four sixes: 4x5 + 1
        ("4d6kl3", 3, Fraction(21, 1296)),
        ("4d6kh3", 3, Fraction(1, 1296)),
        ("d6/2", 0, Fraction(1, 6)),
        ("d6/2", 1, Fraction(2, 6)),
        ("d6-d6", 0, Fraction(6, 36)),
    ],
)
def test_exact_probability(formula: str, value: int, probability: Fraction) -> None:
    dist = parse(formula).distribution()
    assert dist[value] == probability


@pytest.mark.parametrize("formula", ["d6", "2d6", "3d6x10", "d66", "4d6kh3", "d100", "(d4+1)x10"])
def test_distribution_sums_to_one(formula: str) -> None:
    dist = parse(formula).distribution()
    assert sum(dist.values()) == 1
    assert list(dist) == parse(formula).outcomes()


# --------------------------------------------------------------------------- seeded statistics


def _assert_matches(formula: str, seed: str, n: int) -> None:
    """n seeded rolls fit the exact distribution: each outcome within 5 sigma, and chi-square
    within 6 standard deviations of its mean. Seeds are fixed, so this never flakes."""
    f = parse(formula)
    rng = Rng(seed)
    counts = Counter(f.roll(rng) for _ in range(n))
    dist = f.distribution()
    assert set(counts) <= set(dist), f"{formula} rolled values outside its outcomes"
    chi2 = 0.0
    for value, p in dist.items():
        expected = n * float(p)
        sigma = math.sqrt(n * float(p) * (1 - float(p)))
        got = counts.get(value, 0)
        assert abs(got - expected) <= 5 * sigma + 1, (formula, value, got, expected)
        chi2 += (got - expected) ** 2 / expected
    df = len(dist) - 1
    if df:
        assert chi2 <= df + 6 * math.sqrt(2 * df), (formula, chi2, df)


@pytest.mark.parametrize(
    ("formula", "n"),
    [
        ("d6", 60_000),
        ("2d6", 72_000),
        ("3d6x10", 100_000),
        ("500xd6", 30_000),
        ("d66", 72_000),
        ("d100", 100_000),
        ("4d6kh3", 100_000),
        ("4d6kl3", 50_000),
        ("2d6+1", 36_000),
        ("d6/2", 30_000),
    ],
)
def test_seeded_rolls_follow_the_distribution(formula: str, n: int) -> None:
    _assert_matches(formula, f"stats-{formula}", n)


def test_every_outcome_of_d66_and_3d6x10_comes_up() -> None:
    rng = Rng("coverage")
    assert {parse("d66").roll(rng) for _ in range(5000)} == set(parse("d66").outcomes())
    assert {parse("3d6x10").roll(rng) for _ in range(20000)} == set(range(30, 181, 10))
    assert {parse("2d6").roll(rng) for _ in range(5000)} == set(range(2, 13))


def test_same_seed_same_rolls() -> None:
    a, b = Rng("same"), Rng("same")
    assert [roll("3d6x10", a) for _ in range(50)] == [roll("3d6x10", b) for _ in range(50)]


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("d0", "dice 'd0': a die needs at least one side, not d0"),
        ("2d", "dice '2d': a die needs a number of sides (e.g. d6)"),
        ("d6+", "dice 'd6+': ends where a number or die was expected"),
        ("", "dice '': is empty"),
        ("   ", "dice '   ': is empty"),
        ("x", "dice 'x': unexpected 'x'"),
        ("3d6kh4", "dice '3d6kh4': cannot keep 4 of 3 dice"),
        ("4d6kh", "dice '4d6kh': 'kh' needs a number of dice to keep"),
        ("0d6", "dice '0d6': must roll at least one die"),
        ("(d6", "dice '(d6': missing ')'"),
        ("d6)", "dice 'd6)': unexpected ')'"),
        ("abc", "dice 'abc': unexpected 'a'"),
        ("2d6 6", "dice '2d6 6': unexpected '6'"),
    ],
)
def test_bad_formulas_have_clear_messages(formula: str, message: str) -> None:
    with pytest.raises(DiceError) as exc:
        parse(formula)
    assert str(exc.value) == message
    assert "\n" not in str(exc.value)


def test_dice_errors_are_delve_errors() -> None:
    assert issubclass(DiceError, DelveError)
    with pytest.raises(DelveError):
        parse(None)  # type: ignore[arg-type]


def test_division_by_a_possible_zero_is_refused() -> None:
    with pytest.raises(DiceError, match="zero"):
        parse("d6/(d2-1)")


# --------------------------------------------------------------------------- property


_SIDES = st.sampled_from(["2", "3", "4", "6", "8", "10", "12", "20", "66", "100", "%"])


@st.composite
def _dice_term(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 3))
    sides = draw(_SIDES)
    if sides == "66":
        return f"{count if count > 1 else ''}d66"
    keep = ""
    if count > 1 and sides in ("4", "6", "8") and draw(st.booleans()):
        keep = f"{draw(st.sampled_from(['kh', 'kl']))}{draw(st.integers(1, count))}"
    return f"{'' if count == 1 and draw(st.booleans()) else count}d{sides}{keep}"


_LEAF = st.one_of(_dice_term(), st.integers(0, 20).map(str))
_FORMULA = st.recursive(
    _LEAF,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "x"]), inner).map(lambda t: "".join(t)),
        inner.map(lambda s: f"({s})"),
        st.tuples(inner, st.integers(1, 10)).map(lambda t: f"({t[0]})/{t[1]}"),
    ),
    max_leaves=4,
)


@settings(max_examples=200, deadline=None)
@given(
    formula=_FORMULA,
    # A seed is printable text (control characters are refused: see check_seed).
    seed=st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=12).map(
        lambda s: f"s{s}s"
    ),
)
def test_every_roll_is_a_listed_outcome(formula: str, seed: str) -> None:
    try:
        f = parse(formula)
        outcomes = set(f.outcomes())
    except DiceError as err:
        # Only the enumeration limit may refuse a formula this strategy builds.
        assert "too many" in str(err)
        return
    rng = Rng(seed)
    for _ in range(20):
        value = f.roll(rng)
        assert value in outcomes
        assert f.min <= value <= f.max
