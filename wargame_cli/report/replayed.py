"""A save replayed for its report: the game the rules reproduce, never the file's own text.

The log, the status and the result come from the rules; the pictures of the table (the
ruleset's `picture` hook) are drawn from the state as it stood at the end of each turn (turn 0:
after deployment) with that turn's events (its moves and attacks), and, where the ruleset can
reckon it, side A's chance of winning then."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.engine import events
from wargame_cli.engine.entries import Shown
from wargame_cli.kit.sides import SIDES
from wargame_cli.saves import games, provenance, store


@dataclass
class Replayed:
    save: dict[str, Any]  # the replayed game in a save's form
    pictures: dict[int, str] = field(default_factory=dict)  # turn -> SVG at its end
    chances: list[tuple[int, float]] = field(default_factory=list)  # (turn, side A's chance)
    told: provenance.Provenance | None = None  # the dice and decisions, and the file's seal


def replay(path: Path, pictures: bool = True) -> Replayed:
    """Replay and verify the save; with `pictures`, draw the table at the end of every turn."""
    data = store.load(path)
    names = {s: str(data["setup"]["names"].get(s, s)) for s in SIDES}
    ruleset = registry.get(str(data["ruleset"]["id"]))
    out = Replayed(save={})
    happened: list[dict[str, Any]] = []  # the turn's events so far
    where: dict[str, Any] = {}  # each figure's last place the log gave

    def capture(turn: int, game: Any) -> None:
        if not pictures or turn in out.pictures:
            return
        picture = ruleset.picture(game.state, names, list(happened))
        if picture is None:
            return
        out.pictures[turn] = picture
        chance = ruleset.chance(game.state)
        if chance is not None:
            out.chances.append((turn, chance))

    def observer(entry: Shown, game: Any) -> None:
        if entry["t"] == "turn":
            capture(int(entry["n"]) - 1, game)
            happened.clear()
        elif entry["t"] == "event" and pictures:
            data = dict(entry.get("data") or {})
            happened.append({"kind": entry.get("kind"), "data": _started(data, where)})

    session = games.verify(path, observer=observer)
    capture(session.runner.turn, session.game)
    out.save = games.to_save(session, players=session.meta.get("players"))
    out.told = provenance.of_session(session)
    out.save["created"] = data.get("created", out.save["created"])
    return out


def _started(data: dict[str, Any], where: dict[str, Any]) -> dict[str, Any]:
    """An event's data for the picture: a mob's move (`to`, figure by figure, no `from`)
    with where each figure stood before it, as the log last placed it; and the places the
    event gives kept for the next (`at` and `to`, a point or figure by figure)."""
    ends = data.get("to")
    if isinstance(ends, dict) and "from" not in data:
        data["from"] = {f: where[f] for f in ends if f in where}
    for key in ("at", "to"):
        placed = data.get(key)
        if isinstance(placed, dict):
            where.update(placed)
        elif isinstance(placed, list) and (who := events.subject(data)):
            where[who] = placed
    return data
