"""The morale phase (e24-e27): every mob that lost creatures this round rolls a die per
creature in its dead pool; each under its morale score puts a figure in danger; the
controller's Presence successes save figures; the rest flee, the owner choosing who; then
the dead and the fled move to the mob's casualty pool."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import bot, pools
from wargame_cli.rulesets.mobs_and_morale.state import FLED, Battle, Mob

from wargame_cli.engine.requests import Choice, Event, Option, Request, Roll
from wargame_cli.wording import plural

Steps = Generator[Request, Any, Any]


def morale_phase(b: Battle) -> Steps:
    for mob in b.mobs.values():
        if mob.dead_pool:
            yield from _test(b, mob)
            yield from to_casualties(b, mob)
        mob.rallied = ""


def _test(b: Battle, mob: Mob) -> Steps:
    figures = b.figures(mob)
    if not figures:
        return
    dead = len(mob.dead_pool)
    dice = dead
    if mob.rallied == "full":
        dice = 0
    elif mob.rallied == "partial":
        dice = math.ceil(dead / 2)
    faces: tuple[int, ...] = ()
    if dice:
        faces = yield Roll(
            dice=(b.options["die"],) * dice,
            reason=f"{mob.name}: morale, one die per creature in its dead pool ({dead})",
            side=mob.side,
            rules=("e24",),
        )
    under = pools.in_danger(faces, mob.morale)
    danger = min(len(figures), under)  # e26: no more than the mob has left
    rallied = f" (rallied: {dice} of {plural(dead, 'die', 'dice')})" if mob.rallied else ""
    capped = f" (only {danger} left)" if danger < under else ""
    yield Event(
        f"{mob.name} tests morale {mob.morale}{rallied}: {pools.shown(faces)} -> {under} "
        f"under {mob.morale}, {danger} in danger of fleeing{capped}",
        rules=("e24",),
        kind="morale",
        data={"mob": mob.name, "faces": list(faces), "morale": mob.morale, "danger": danger},
    )
    saved = 0
    boss = b.controller(mob)
    if danger and boss is not None and boss.presence > 0:
        held = yield Roll(
            dice=(b.options["die"],) * boss.presence,
            reason=f"{boss.id} holds {mob.name}: Presence",
            side=mob.side,
            rules=("e25",),
        )
        saved = min(danger, pools.successes(held, b.options["success_on"]))
        yield Event(
            f"{boss.id} holds {mob.name}: Presence {pools.shown(held)} -> keeps {saved} of "
            f"{danger} from running",
            rules=("e25",),
            kind="rally",
            data={"mob": mob.name, "controller": boss.id, "faces": list(held), "saved": saved},
        )
    runners = pools.fleeing(danger, saved, len(figures))
    for _ in range(runners):
        # behaviour 0 asked who runs even when the whole mob runs
        yield from _flee_one(b, mob, ask=runners < len(figures) or b.rules_version == 0)


def _flee_one(b: Battle, mob: Mob, ask: bool) -> Steps:
    """e26: the owner picks which figure runs (not asked when the whole mob runs)."""
    figures = b.figures(mob)
    runner = figures[0]
    if ask and len(figures) > 1:
        key = yield Choice(
            side=mob.side,
            prompt=f"{mob.name}: a figure flees. Which one?",
            options=tuple(
                Option(f.id, f"{f.id} (health {f.health}/{f.max_health})") for f in figures
            ),
            default=lambda: bot.to_lose(b, figures, wounded_first=True).id,
            rules=("e26",),
            kind="casualty",
        )
        runner = b.creatures[key]
    runner.status = FLED
    runner.last_pos, runner.pos = runner.pos, None
    mob.casualty_pool.append(runner.id)
    yield Event(
        f"{runner.id} flees the battle",
        rules=("e26", "e27"),
        kind="removed",
        data={"creature": runner.id, "mob": mob.name, "how": "fled"},
    )


def to_casualties(b: Battle, mob: Mob) -> Steps:
    """e27: the dead pool joins the casualty pool."""
    if not mob.dead_pool:
        return
    moved, mob.dead_pool = list(mob.dead_pool), []
    mob.casualty_pool += moved
    yield Event(
        f"{mob.name}: {len(moved)} from the dead pool to the casualty pool "
        f"({len(mob.casualty_pool)} there now)",
        rules=("e27",),
        kind="pools",
        data={"mob": mob.name, "moved": moved, "casualty_pool": list(mob.casualty_pool)},
    )
