"""Dice formulas: a small parser of our own.

Grammar (case-insensitive, spaces ignored)::

    expr   := term (("+" | "-") term)*
    term   := factor (("x" | "*" | "/") factor)*      # "/" divides and rounds down
    factor := NUMBER | dice | "(" expr ")"
    dice   := [NUMBER] "d" (NUMBER | "%" | "66") [("kh" | "kl") NUMBER]

So ``d6``, ``2d6+1``, ``3d6x10``, ``500xd6``, ``d66`` (tens die then units die, 11-66),
``d100``/``d%``, ``4d6kh3`` and ``(d4+1)x10`` all parse. A formula can roll with an Rng and can
list its exact distribution, which the table engine uses to check that entries cover every roll.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

from generator.engine.rng import Rng
from generator.errors import DiceError

if TYPE_CHECKING:
    from fractions import Fraction

# ASCII digits only: `\d` would take Arabic-Indic and other decimal digits (`d٦` rolled a d6).
_TOKEN = re.compile(r"\s*(?:([0-9]+)|(kh|kl)|(d)|([-+x*/×()%]))", re.IGNORECASE)
_TIMES = ("x", "*", "×")
_MAX_SUPPORT = 200_000  # outcomes we agree to enumerate
_MAX_DICE = 1000
MAX_FACES = 10_000  # faces in all (3d6 has 18) for which the exact odds are listed
MAX_TEXT = 200  # characters in a formula: the longest in the tables is about 20
MAX_NESTING = 20  # brackets inside brackets
MAX_VALUE = 10**15  # no formula may give a number beyond this (a printable total)


Dist = dict[int, int]  # value -> number of equally likely ways


def _tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    stripped = text.strip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if not m or m.end() == pos:
            bad = stripped[pos:].strip()[:1]
            raise DiceError(f"dice {text!r}: unexpected {bad!r}")
        tok = m.group(0).strip().lower()
        tokens.append(tok)  # as written, so an error quotes it ('9**9': unexpected '*')
        pos = m.end()
    return tokens


class _Node:
    lo: int
    hi: int
    faces: int  # the faces of all its dice: what listing its odds costs
    uniform: bool = False  # every value from lo to hi equally likely (one die, +/- numbers)

    def fn(self) -> Callable[[Rng], int]:
        raise NotImplementedError

    def dist(self) -> Dist:
        raise NotImplementedError


class _Num(_Node):
    def __init__(self, value: int) -> None:
        self.value = self.lo = self.hi = value
        self.faces = 0

    def fn(self) -> Callable[[Rng], int]:
        v = self.value
        return lambda rng: v

    def dist(self) -> Dist:
        return {self.value: 1}


class _Dice(_Node):
    def __init__(self, count: int, sides: int, keep: tuple[str, int] | None, d66: bool) -> None:
        self.count, self.sides, self.keep, self.d66 = count, sides, keep, d66
        if d66:
            self.lo, self.hi = 11 * count, 66 * count
        else:
            kept = keep[1] if keep else count
            self.lo, self.hi = kept, kept * sides
        self.faces = count * (36 if d66 else sides)
        self.uniform = count == 1 and not d66

    def fn(self) -> Callable[[Rng], int]:
        n, s = self.count, self.sides
        if self.d66:
            return lambda rng: sum(
                10 * (1 + int(rng.random() * 6)) + 1 + int(rng.random() * 6) for _ in range(n)
            )
        if self.keep:
            high = self.keep[0] == "kh"
            k = self.keep[1]

            def keep_roll(rng: Rng) -> int:
                rolls = sorted((1 + int(rng.random() * s) for _ in range(n)), reverse=high)
                return sum(rolls[:k])

            return keep_roll
        if n == 1:
            return lambda rng: 1 + int(rng.random() * s)
        return lambda rng: sum(1 + int(rng.random() * s) for _ in range(n))

    def dist(self) -> Dist:
        if self.faces > MAX_FACES:
            raise DiceError(f"{self}: too many faces to list ({self.faces:,})")
        if self.d66:
            one = {10 * a + b: 1 for a in range(1, 7) for b in range(1, 7)}
            return _repeat(one, self.count)
        if self.keep:
            if self.sides**self.count > _MAX_SUPPORT * 10:
                raise DiceError(f"{self}: too many combinations to list")
            high = self.keep[0] == "kh"
            k = self.keep[1]
            out: Dist = {}
            for rolls in product(range(1, self.sides + 1), repeat=self.count):
                v = sum(sorted(rolls, reverse=high)[:k])
                out[v] = out.get(v, 0) + 1
            return out
        return _repeat({v: 1 for v in range(1, self.sides + 1)}, self.count)

    def __str__(self) -> str:
        keep = f"{self.keep[0]}{self.keep[1]}" if self.keep else ""
        return f"{self.count}d{66 if self.d66 else self.sides}{keep}"


def _repeat(one: Dist, n: int) -> Dist:
    out: Dist = {0: 1}
    for _ in range(n):
        out = _combine(out, one, lambda a, b: a + b)
    return out


def _combine(a: Dist, b: Dist, op: Callable[[int, int], int]) -> Dist:
    if len(a) * len(b) > _MAX_SUPPORT * 50:
        raise DiceError("formula has too many outcomes to list")
    out: Dist = {}
    for va, ca in a.items():
        for vb, cb in b.items():
            v = op(va, vb)
            out[v] = out.get(v, 0) + ca * cb
    if len(out) > _MAX_SUPPORT:
        raise DiceError("formula has too many outcomes to list")
    return out


_OPS: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "x": lambda a, b: a * b,
    "/": lambda a, b: a // b,
}


class _BinOp(_Node):
    def __init__(self, op: str, left: _Node, right: _Node) -> None:
        self.op, self.left, self.right = op, left, right
        if op == "/" and right.lo <= 0 <= right.hi:
            raise DiceError("division by a value that can be zero")
        corners = [_OPS[op](a, b) for a in (left.lo, left.hi) for b in (right.lo, right.hi)]
        self.lo, self.hi = min(corners), max(corners)
        if max(abs(self.lo), abs(self.hi)) > MAX_VALUE:
            raise DiceError(f"can give numbers past {MAX_VALUE:,}")
        self.faces = left.faces + right.faces
        # One die plus or minus a number is still one die: its values are one even run.
        if op == "+":
            self.uniform = (left.uniform and not right.faces) or (right.uniform and not left.faces)
        elif op == "-":
            self.uniform = left.uniform and not right.faces

    def fn(self) -> Callable[[Rng], int]:
        f, g, op = self.left.fn(), self.right.fn(), _OPS[self.op]
        return lambda rng: op(f(rng), g(rng))

    def dist(self) -> Dist:
        return _combine(self.left.dist(), self.right.dist(), _OPS[self.op])


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        if len(text) > MAX_TEXT:
            raise DiceError(f"dice {text[:20]!r}...: longer than {MAX_TEXT} characters")
        self.tokens = _tokenize(text)
        self.pos = 0
        self.depth = 0

    def error(self, message: str) -> DiceError:
        return DiceError(f"dice {self.text!r}: {message}")

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise self.error("ends too soon")
        self.pos += 1
        return tok

    def parse(self) -> _Node:
        if not self.tokens:
            raise self.error("is empty")
        node = self.expr()
        if self.peek() is not None:
            raise self.error(f"unexpected {self.peek()!r}")
        return node

    def expr(self) -> _Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = self.binop(op, node, self.term())
        return node

    def term(self) -> _Node:
        node = self.factor()
        while self.peek() in (*_TIMES, "/"):
            op = "x" if self.take() in _TIMES else "/"
            node = self.binop(op, node, self.factor())
        return node

    def binop(self, op: str, left: _Node, right: _Node) -> _Node:
        try:
            return _BinOp(op, left, right)
        except DiceError as err:
            raise self.error(str(err)) from None

    def factor(self) -> _Node:
        tok = self.peek()
        if tok == "(":
            self.take()
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise self.error(f"brackets nest more than {MAX_NESTING} deep")
            node = self.expr()
            if self.peek() != ")":
                raise self.error("missing ')'")
            self.take()
            self.depth -= 1
            return node
        if tok is not None and tok.isdigit():
            self.take()
            if self.peek() == "d":
                return self.dice(self.number(tok))
            return _Num(self.number(tok))
        if tok == "d":
            return self.dice(1)
        if tok is None:
            raise self.error("ends where a number or die was expected")
        raise self.error(f"unexpected {tok!r}")

    def number(self, tok: str) -> int:
        if len(tok.lstrip("0")) > len(str(MAX_VALUE)):
            raise self.error(f"{tok[:12]}...: a number of {len(tok):,} digits is too big")
        value = int(tok)
        if value > MAX_VALUE:
            raise self.error(f"{value:,} is too big (at most {MAX_VALUE:,})")
        return value

    def dice(self, count: int) -> _Node:
        self.take()  # "d"
        if count < 1:
            raise self.error("must roll at least one die")
        if count > _MAX_DICE:
            raise self.error(f"at most {_MAX_DICE} dice at once")
        tok = self.peek()
        if tok == "%":
            self.take()
            sides, d66 = 100, False
        elif tok is not None and tok.isdigit():
            self.take()
            sides, d66 = self.number(tok), tok == "66"
        else:
            raise self.error("a die needs a number of sides (e.g. d6)")
        if sides < 1:
            raise self.error(f"a die needs at least one side, not d{sides}")
        keep = None
        if self.peek() in ("kh", "kl"):
            how = self.take()
            num = self.peek()
            if num is None or not num.isdigit():
                raise self.error(f"'{how}' needs a number of dice to keep")
            self.take()
            k = int(num)
            if d66 or not 1 <= k <= count:
                raise self.error(f"cannot keep {k} of {count} dice")
            keep = (how, k)
        node = _Dice(count, sides, keep, d66)
        if node.hi > MAX_VALUE:
            raise self.error(f"can give numbers past {MAX_VALUE:,}")
        return node


class Formula:
    """A parsed dice formula. Build with :func:`parse`."""

    __slots__ = ("text", "_node", "roll", "_dist")

    def __init__(self, text: str) -> None:
        self.text = text
        self._node = _Parser(text).parse()
        self.roll: Callable[[Rng], int] = self._node.fn()
        self._dist: Dist | None = None

    @property
    def min(self) -> int:
        return self._node.lo

    @property
    def max(self) -> int:
        return self._node.hi

    @property
    def faces(self) -> int:
        """The faces of all its dice (3d6 has 18): what listing its exact odds costs."""
        return self._node.faces

    @property
    def exact(self) -> bool:
        """Whether its exact odds are listed (few faces); else only its range is known."""
        return self._node.faces <= MAX_FACES

    @property
    def uniform(self) -> bool:
        """One die, perhaps plus or minus numbers: every value from min to max as likely."""
        return self._node.uniform

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each outcome."""
        from fractions import Fraction  # only tests and checks need exact odds

        counts = self._counts()
        total = sum(counts.values())
        return {v: Fraction(c, total) for v, c in sorted(counts.items())}

    def outcomes(self) -> list[int]:
        """Every value the formula can produce, in order."""
        return sorted(self._counts())

    def _counts(self) -> Dist:
        if self._dist is None:
            if not self.exact:
                raise DiceError(
                    f"dice {self.text!r}: {self.faces:,} faces are too many to list the odds "
                    f"of (at most {MAX_FACES:,})"
                )
            self._dist = self._node.dist()
        return self._dist

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Formula({self.text!r})"

    def __reduce__(self) -> tuple:
        # Rebuilt from its text (its roll function is a closure) if anything copies it.
        return (parse, (self.text,))


@lru_cache(maxsize=4096)
def parse(text: str) -> Formula:
    """Parse a formula (cached: formulas are immutable)."""
    if not isinstance(text, str):
        raise DiceError(f"dice {text!r}: must be text such as '2d6'")
    return Formula(text)


def roll(text: str, rng: Rng) -> int:
    return parse(text).roll(rng)


def die_max(text: str) -> int:
    """Largest face of a single-die formula such as 'd8' (used for power dice)."""
    return parse(text).max
