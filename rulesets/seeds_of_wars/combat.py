"""Who may act in each step and against whom, the melee bonus, and damage (d8-d12, gap 5-6).

Every refusal is a reason a human can read, so illegal options are shown disabled with it.
"""

from __future__ import annotations

from wargame_cli.rulesets.seeds_of_wars.checks import MAX_BONUS
from wargame_cli.rulesets.seeds_of_wars.movement import reachable
from wargame_cli.rulesets.seeds_of_wars.state import DESTROYED, ROUTED, Battle, Unit

from wargame_cli.wording import percent

ROUTED_CANNOT_ATTACK = "Routed units cannot attack"


def move_refusal(battle: Battle, unit: Unit, acted: set[str]) -> str | None:
    if unit.uid in acted:
        return "already moved this step"
    if unit.state == ROUTED:
        return "Routed: it flees towards its Reserve instead"
    if unit.kind.mv <= 0:
        return "Mv 0: it cannot move"
    if battle.engaged(unit) and not battle.options["engaged_can_move"]:
        return "engaged in melee: it leaves only by retreating before combat (d13)"
    if len(reachable(battle, unit)) <= 1:
        return "no space it can reach"
    return None


def shot_targets(battle: Battle, unit: Unit) -> list[Unit]:
    """d11: enemies in spaces orthogonally adjacent to the shooter's."""
    assert unit.space is not None
    return [
        e
        for e in battle.fighting()
        if e.side != unit.side
        and e.space is not None
        and battle.board.adjacent(unit.space, e.space)
    ]


def shooter_refusal(battle: Battle, unit: Unit, acted: set[str]) -> str | None:
    if unit.uid in acted:
        return "already shot this step"
    if unit.kind.ra is None:
        return "no ranged attack (Ra -)"
    if unit.state == ROUTED:
        return ROUTED_CANNOT_ATTACK
    if battle.engaged(unit) and not battle.options["engaged_can_shoot"]:
        return "engaged in melee: it cannot shoot"
    if not shot_targets(battle, unit):
        return "no enemy in an orthogonally adjacent space"
    return None


def fighter_refusal(battle: Battle, unit: Unit, acted: set[str]) -> str | None:
    if unit.uid in acted:
        return "already fought this step"
    if unit.state == ROUTED:
        return ROUTED_CANNOT_ATTACK
    if not battle.engaged(unit):
        return "no enemy in its space"
    return None


def flanking(battle: Battle, attacker: Unit, target: Unit) -> bool:
    """Gap 6, option `flank`: `attacked`: another friendly unit already attacked the target in
    melee this round; `outnumber`: the attacker's side has more units in the space; `off`."""
    rule = battle.options["flank"]
    if rule == "attacked":  # someone besides the attacker struck the target this round
        others = battle.attacked.get(target.uid)
        if not others:
            return False
        return len(others) > 1 or attacker.uid not in others
    if rule == "outnumber":
        assert attacker.space is not None
        mine = len(battle.at(attacker.space, attacker.side))
        return mine > len(battle.at(attacker.space, target.side))
    return False


def melee_bonus(battle: Battle, attacker: Unit, target: Unit) -> tuple[int, list[str]]:
    """d12: +2 if charging or flanking, +2 at most (gap 6). Charging: the attacker entered the
    target's space this round while the target held it."""
    why: list[str] = []
    if target.uid in attacker.charged:
        why.append("charging")
    if flanking(battle, attacker, target):
        why.append("flanking")
    return (MAX_BONUS if why else 0), why


def damage(unit: Unit) -> bool:
    """Gap 5: one Ht per hit; destroyed when the damage reaches Ht. True if destroyed."""
    unit.taken += 1
    unit.damaged_this_round = True
    if unit.taken >= unit.kind.ht:
        unit.fate = DESTROYED
        return True
    return False


def needs(bonus: int, de: int) -> str:
    """The face a 1d20 + bonus needs to exceed De, with its chance, for labels."""
    face = de - bonus + 1
    if face <= 1:
        return "hits on any roll"
    if face > 20:
        return "cannot hit"
    return f"needs {face}+ on 1d20 ({percent((21 - face) / 20)})"


def beats(mine: int, theirs: int) -> float:
    """The chance that 1d20 + `mine` beats 1d20 + `theirs` outright (d13: a tie fails)."""
    wins = sum(1 for a in range(1, 21) for b in range(1, 21) if a + mine > b + theirs)
    return wins / 400
