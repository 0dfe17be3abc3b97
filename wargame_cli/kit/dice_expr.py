"""Dice expressions, AnyDice style, read by a small hand-written parser (never `eval`) and
worked out exactly (`wargame dice`, and the rolls each ruleset names).

The grammar (words in any case, spaces anywhere between tokens):

    roll       := sum [compare sum]
    compare    := ">=" | ">" | "<=" | "<" | "=" | "==" | "!="
    sum        := term (("+" | "-") term)*
    term       := ["-"] atom
    atom       := dice | pool | NUMBER | "(" sum ")"
    dice       := [NUMBER] "d" NUMBER [keep NUMBER]
    keep       := "highest" | "lowest" | "best" | "worst"
    pool       := "pool" [NUMBER] "d" NUMBER compare NUMBER ["vs" ("defence" | "defense") NUMBER]

- `2d10+d8`: the sum of the dice; `d20+3 > 14`: the chance the comparison holds;
  `2d10+d8 > 3d6`: one roll against another (the table shows their difference).
- `4d6 highest 3` keeps the three highest dice; `lowest` the lowest. `best` and `worst` mean
  the dice that help the roll or hurt it: higher is better, except on the left of `<` or `<=`
  (a roll under), on the right of `>` or `>=`, and in a subtracted term, where lower is. So
  `3d6 best 1 <= 2` (Squad Alpha's test) keeps the lowest die.
- `pool 4d10 >= 6` counts the dice showing 6 or more (a success pool); `vs defence 8` then
  rolls a die of the same size for each success, and each showing 8 or more cancels one
  (Mobs and Morale, e12-e14): the value is what is left.

Sizes are bounded (`MAX_DICE`, `MAX_SIDES`, `MAX_NUMBER`, `MAX_VALUES`, `MAX_WORK`,
`MAX_KEEP_WORK`), so an
absurd roll is refused in a line rather than worked out for hours.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from wargame_cli.errors import BadInput
from wargame_cli.kit.dice_odds import Dist, at_least, count_dist, keep, sum_of, thinned
from wargame_cli.wording import plural

MAX_DICE = 100  # dice in one expression, pools included
MAX_SIDES = 1000
MAX_NUMBER = 10**6  # any number written
MAX_VALUES = 20_001  # different values a sum may take
MAX_WORK = 4_000_000  # pairs of values combined (two sides of a comparison): about a second
MAX_KEEP_WORK = 10_000_000  # steps keeping the highest or lowest dice: about a second and a half

COMPARE = (">=", "<=", "==", "!=", ">", "<", "=")
KEEP = ("highest", "lowest", "best", "worst")


class DiceExprError(BadInput):
    """A dice expression that does not read, or is too large: names the problem and where."""


# -- the syntax tree --------------------------------------------------------------------------
@dataclass(frozen=True)
class Const:
    value: int


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int
    kept: int | None = None
    how: str = ""  # one of KEEP when `kept` is set


@dataclass(frozen=True)
class Pool:
    count: int
    sides: int
    compare: str
    target: int
    defence: int | None = None


@dataclass(frozen=True)
class Sum:
    terms: tuple[tuple[int, Node], ...]  # (+1 or -1, node)


Node = Const | Dice | Pool | Sum


@dataclass(frozen=True)
class Roll:
    """A parsed expression: a value, or two compared."""

    left: Node
    compare: str | None = None
    right: Node | None = None


@dataclass(frozen=True)
class Odds:
    """What an expression works out to: the distribution the table shows (of the value, or
    of the difference of two rolls compared), and the chance a comparison holds."""

    expression: str  # as written back, `best` read as `highest` or `lowest`
    shown: str  # what the distribution is of
    dist: Dist
    chance: Fraction | None = None
    passing: frozenset[int] | None = None  # the values of `dist` where the comparison holds


# -- reading ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Token:
    kind: str  # "num", "d", "word", "op", "(", ")", "end"
    text: str
    pos: int


def _tokens(text: str) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isascii() and ch.isdigit():
            j = i
            while j < len(text) and text[j].isascii() and text[j].isdigit():
                j += 1
            if j - i > 7:
                raise _error(text, i, f"the number {text[i : i + 8]}... is too large")
            out.append(Token("num", text[i:j], i))
            i = j
        elif ch.isascii() and ch.isalpha():
            j = i
            while j < len(text) and text[j].isascii() and text[j].isalpha():
                j += 1
            word = text[i:j].lower()
            out.append(Token("d" if word == "d" else "word", word, i))
            i = j
        elif text.startswith(COMPARE, i) or ch in "+-":
            op = next((c for c in COMPARE if text.startswith(c, i)), ch)
            out.append(Token("op", op, i))
            i += len(op)
        elif ch in "()":
            out.append(Token(ch, ch, i))
            i += 1
        else:
            raise _error(text, i, f"{ch!r} is not part of a dice expression")
    out.append(Token("end", "", len(text)))
    return out


def _error(text: str, pos: int, problem: str) -> DiceExprError:
    where = "at the end" if pos >= len(text.rstrip()) else f"at column {pos + 1}"
    return DiceExprError(f"dice expression {text!r}: {problem} {where}")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.i = 0
        self.dice = 0
        self.span = 0

    @property
    def at(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def fail(self, problem: str, token: Token | None = None) -> DiceExprError:
        return _error(self.text, (token or self.at).pos, problem)

    def expect_number(self, what: str) -> int:
        token = self.at
        if token.kind != "num":
            raise self.fail(f"expected {what}")
        self.take()
        value = int(token.text)
        if value > MAX_NUMBER:
            raise self.fail(f"{value} is too large (at most {MAX_NUMBER:,})", token)
        return value

    def roll(self) -> Roll:
        if self.at.kind == "end":
            raise self.fail("expected a die or a number")
        left = self.sum()
        if self.at.kind == "op" and self.at.text in COMPARE:
            token, before = self.take(), self.span
            right = self.sum()
            if (before + 1) * (self.span - before + 1) > MAX_WORK:  # every pair of values
                raise self.fail("comparing these two rolls is too large to work out exactly", token)
            out = Roll(left, "==" if token.text == "=" else token.text, right)
        else:
            out = Roll(left)
        if self.at.kind != "end":
            raise self.fail(f"unexpected {self.at.text!r}")
        return out

    def sum(self) -> Node:
        terms = [self.term(+1)]
        while self.at.kind == "op" and self.at.text in "+-":
            sign = 1 if self.take().text == "+" else -1
            terms.append(self.term(sign))
        return terms[0][1] if len(terms) == 1 and terms[0][0] == 1 else Sum(tuple(terms))

    def term(self, sign: int) -> tuple[int, Node]:
        if self.at.kind == "op" and self.at.text == "-":
            self.take()
            sign = -sign
        return sign, self.atom()

    def atom(self) -> Node:
        token = self.at
        if token.kind == "(":
            self.take()
            inner = self.sum()
            if self.at.kind != ")":
                raise self.fail("expected ')'")
            self.take()
            return inner
        if token.kind == "word" and token.text == "pool":
            self.take()
            return self.pool()
        if token.kind == "num" and self.tokens[self.i + 1].kind != "d":
            return Const(self.expect_number("a number"))
        if token.kind in ("num", "d"):
            count, sides = self.die()
            return self.kept(count, sides)
        if token.kind == "word":
            raise self.fail(f"unknown word {token.text!r}")
        raise self.fail("expected a die or a number")

    def die(self) -> tuple[int, int]:
        start = self.at
        count = self.expect_number("a count of dice") if start.kind == "num" else 1
        if self.at.kind != "d":
            raise self.fail("expected 'd'")
        self.take()
        sides = self.expect_number("the die's sides after 'd'")
        if count < 1:
            raise self.fail("a roll needs at least one die", start)
        if not 1 <= sides <= MAX_SIDES:
            raise self.fail(f"a die has 1 to {MAX_SIDES} sides, not {sides}", start)
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.fail(f"too many dice (at most {MAX_DICE} in one expression)", start)
        self.span += count * (sides - 1)  # the values all the dice so far may add up to
        if self.span >= MAX_VALUES:
            raise self.fail(
                f"too large to work out exactly (more than {MAX_VALUES:,} values)", start
            )
        return count, sides

    def kept(self, count: int, sides: int) -> Dice:
        if not (self.at.kind == "word" and self.at.text in KEEP):
            return Dice(count, sides)
        how = self.take().text
        token = self.at
        kept = self.expect_number(f"how many dice to keep after '{how}'")
        if not 1 <= kept <= count:
            raise self.fail(f"cannot keep {kept} of {plural(count, 'die', 'dice')}", token)
        work = sides * (count + 1) ** 2 * (kept * sides + 1) // 2
        if work > MAX_KEEP_WORK:
            raise self.fail(f"keeping {kept} of {count}d{sides} is too large to work out", token)
        return Dice(count, sides, kept, how)

    def pool(self) -> Pool:
        count, sides = self.die()
        if not (self.at.kind == "op" and self.at.text in (">=", ">", "<=", "<")):
            raise self.fail("expected what a success is (>=, >, <= or <, then a number)")
        compare = self.take().text
        target = self.expect_number("the number a die must meet")
        defence = None
        if self.at.kind == "word" and self.at.text == "vs":
            self.take()
            if not (self.at.kind == "word" and self.at.text in ("defence", "defense")):
                raise self.fail("expected 'defence' after 'vs'")
            self.take()
            defence = self.expect_number("the defence number")
        return Pool(count, sides, compare, target, defence)


def parse(text: str) -> Roll:
    """The expression's syntax tree; `DiceExprError` names the first problem and its column."""
    if len(text) > 1000:
        raise DiceExprError("dice expression: too long (at most 1,000 characters)")
    return _Parser(text).roll()


# -- working out ------------------------------------------------------------------------------
def _holds(value: int, compare: str, other: int) -> bool:
    return {
        ">=": value >= other,
        ">": value > other,
        "<=": value <= other,
        "<": value < other,
        "==": value == other,
        "!=": value != other,
    }[compare]


def _high_is_good(compare: str | None, left: bool) -> bool:
    """Whether a higher value helps the roll: on the left of `>`, `>=` or no comparison,
    on the right of `<`, `<=`; `=` and `!=` take higher as better."""
    if compare in ("<", "<="):
        return not left
    if compare in (">", ">="):
        return left
    return True


def _combine(a: Dist, b: Dist) -> Dist:
    if len(a.weights) * len(b.weights) > MAX_WORK:
        raise DiceExprError("dice expression: too large to work out exactly")
    return a.plus(b)


def dist_of(node: Node, high_good: bool = True) -> Dist:
    """The exact distribution of a value; `high_good` says which way `best` keeps."""
    if isinstance(node, Const):
        return Dist.constant(node.value)
    if isinstance(node, Dice):
        if node.kept is None:
            return sum_of([node.sides] * node.count)
        if node.how in ("highest", "lowest"):
            highest = node.how == "highest"
        else:
            highest = (node.how == "best") == high_good
        return keep(node.count, node.sides, node.kept, highest)
    if isinstance(node, Pool):
        hit = _one_hit(node)
        counts = count_dist(node.count, hit)
        if node.defence is not None:
            counts = thinned(counts, 1 - at_least(node.sides, node.defence))
        return Dist.from_chances(counts)
    plain = [t for s, t in node.terms if s == 1 and isinstance(t, Dice) and t.kept is None]
    out = sum_of(d.sides for t in plain for d in [t] * t.count)  # added in one pass
    _check_span(out)
    for sign, term in node.terms:
        if sign == 1 and isinstance(term, Dice) and term.kept is None:
            continue
        if isinstance(term, Const):
            out = out.shifted(sign * term.value)
            continue
        part = dist_of(term, high_good if sign == 1 else not high_good)
        out = _combine(out, part if sign == 1 else part.negated())
        _check_span(out)
    return out


def _check_span(dist: Dist) -> None:
    if len(dist.weights) > MAX_VALUES:
        raise DiceExprError(
            f"dice expression: too large to work out exactly (more than {MAX_VALUES:,} values)"
        )


def _one_hit(pool: Pool) -> Fraction:
    """One pool die counting as a success."""
    s, t = pool.sides, pool.target
    count = {
        ">=": at_least(s, t),
        ">": at_least(s, t + 1),
        "<=": 1 - at_least(s, t + 1),
        "<": 1 - at_least(s, t),
    }[pool.compare]
    return count


def _random(node: Node) -> bool:
    if isinstance(node, Const):
        return False
    if isinstance(node, Sum):
        return any(_random(t) for _, t in node.terms)
    return True


def odds(text: str) -> Odds:
    """Parse and work out `text` exactly."""
    roll = parse(text)
    written = show(roll)
    left = dist_of(roll.left, _high_is_good(roll.compare, True))
    if roll.compare is None or roll.right is None:
        return Odds(written, written, left)
    right = dist_of(roll.right, _high_is_good(roll.compare, False))
    shown_left = show_node(roll.left, _high_is_good(roll.compare, True))
    shown_right = show_node(roll.right, _high_is_good(roll.compare, False))
    op = roll.compare
    if not _random(roll.right):
        (value,) = right.weights
        return _compared(written, shown_left, left, lambda v: _holds(v, op, value))
    if not _random(roll.left):
        (value,) = left.weights
        return _compared(written, shown_right, right, lambda v: _holds(value, op, v))
    diff = _combine(left, right.negated())
    return _compared(written, f"({shown_left}) - ({shown_right})", diff, lambda v: _holds(v, op, 0))


def _compared(written: str, shown: str, dist: Dist, test: Callable[[int], bool]) -> Odds:
    passing = frozenset(v for v in dist.weights if test(v))
    return Odds(written, shown, dist, dist.where(lambda v: v in passing), passing)


# -- writing back -----------------------------------------------------------------------------
def show(roll: Roll) -> str:
    """The expression as read: `best` and `worst` named as what they keep."""
    if roll.compare is None or roll.right is None:
        return show_node(roll.left, True)
    left = show_node(roll.left, _high_is_good(roll.compare, True))
    right = show_node(roll.right, _high_is_good(roll.compare, False))
    return f"{left} {roll.compare} {right}"


def show_node(node: Node, high_good: bool = True) -> str:
    if isinstance(node, Const):
        return str(node.value)
    if isinstance(node, Dice):
        base = f"{node.count if node.count > 1 else ''}d{node.sides}"
        if node.kept is None:
            return base
        how = node.how
        if how in ("best", "worst"):
            how = "highest" if (how == "best") == high_good else "lowest"
        return f"{base} {how} {node.kept}"
    if isinstance(node, Pool):
        out = f"pool {node.count}d{node.sides} {node.compare} {node.target}"
        return out if node.defence is None else f"{out} vs defence {node.defence}"
    parts = []
    for i, (sign, term) in enumerate(node.terms):
        text = show_node(term, high_good if sign == 1 else not high_good)
        if isinstance(term, Sum):
            text = f"({text})"
        if i == 0:
            parts.append(text if sign == 1 else f"-{text}")
        else:
            parts.append(f"{'+' if sign == 1 else '-'} {text}")
    return " ".join(parts)
