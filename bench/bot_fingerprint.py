"""Do the bots still choose what they chose? A fingerprint of seeded bot-vs-bot games.

Plays the default match-up of each skirmish ruleset for seeds 1..N the way `simulate` plays
them (dice from `face_source(stream_seed(seed, 0))`, every choice the ruleset's default) and
records, per game, a digest of every decision (kind and answer), a digest of every menu
(option keys, labels and why an option is disabled) and the outcome. Run it before and after
a speed-up: the decision digests must not change (a bot's choice in a fixed position stays
the same); the menu digests show whether a person would see the same menus.

    python bench/bot_fingerprint.py --games 10 --out /tmp/before.json
    python bench/bot_fingerprint.py --games 10 --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli import registry  # noqa: E402
from wargame_cli.engine.fast import face_source, play_fast, stream_seed  # noqa: E402
from wargame_cli.ruleset import SIDES, Setup, resolve_options  # noqa: E402

SKIRMISHES = ("squad-alpha", "battle-of-ixu", "mobs-and-morale", "seeds-of-wars")


def fingerprint(ruleset_id: str, seed: int, menus: bool = True) -> dict[str, Any]:
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    game = ruleset.new_game(Setup(names=names, teams=teams), options)
    below = face_source(stream_seed(seed, 0))
    decisions, shown = hashlib.sha256(), hashlib.sha256()
    count = 0

    def seen(req: Any) -> None:
        nonlocal count
        count += 1
        decisions.update(f"{req.side}|{req.kind}|{req.default}\n".encode())
        if menus:
            for o in req.options:
                shown.update(f"{o.key}|{o.label}|{o.disabled}\n".encode())
            shown.update(f"{req.prompt}|{req.free_hint}\n".encode())

    outcome = play_fast(game, below, on_choice=seen).outcome
    return {
        "decisions": count,
        "choices": decisions.hexdigest()[:16],
        "menus": shown.hexdigest()[:16] if menus else None,
        "winner": outcome.winner,
        "reason": outcome.reason,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rulesets", default=",".join(SKIRMISHES))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--no-menus", action="store_true")
    args = parser.parse_args()
    figures = {
        rid: [fingerprint(rid, seed, not args.no_menus) for seed in range(1, args.games + 1)]
        for rid in args.rulesets.split(",")
    }
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1))
    if args.compare:
        old = json.loads(args.compare.read_text())
        bad = 0
        for rid, games in figures.items():
            for seed, (was, now) in enumerate(zip(old.get(rid, []), games, strict=False), 1):
                for key in ("choices", "menus", "winner", "reason"):
                    if now[key] is not None and was[key] is not None and was[key] != now[key]:
                        bad += 1
                        print(f"{rid} seed {seed}: {key} differs ({was[key]} -> {now[key]})")
        print("identical" if not bad else f"{bad} differences")
        sys.exit(1 if bad else 0)
    if not args.out:
        print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
