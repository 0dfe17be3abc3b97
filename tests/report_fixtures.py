"""The battle reports kept as fixtures in tests/fixtures/reports/: one seeded bot-vs-bot game
of every ruleset, written up `--style brief`, with teams whose figures carry pronouns. The
suite asserts their properties (tests/test_report_styles.py), never their exact words, so a
change to a ruleset's bots or story only needs them made again:

    .venv/bin/python -m tests.report_fixtures          # every fixture
    .venv/bin/python -m tests.report_fixtures squad-alpha

Each is made by the real commands a writer would use (`wargame play ID --no-input --seed N
--save F`, then `wargame replay F --report FILE --style brief`)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent / "fixtures" / "reports"


@dataclass(frozen=True)
class Spec:
    """One kept report: the ruleset, the seed and the `wargame play` options beyond them;
    `pronouns`: each named figure's pronoun as its team gives it; `default`: the pronoun
    of a figure given none (a Seeds of Wars unit is "it")."""

    ruleset: str
    seed: int
    args: tuple[str, ...]
    pronouns: dict[str, str]
    default: str = "they"

    @property
    def path(self) -> Path:
        return HERE / f"{self.ruleset}-seed-{self.seed}-brief.md"

    def play(self, save: Path) -> list[str]:
        """The `wargame` arguments that play the game into `save`."""
        return ["play", self.ruleset, "--no-input", "--seed", str(self.seed), *self.args] + [
            "--save",
            str(save),
        ]

    def replay(self, save: Path, report: Path, style: str = "brief") -> list[str]:
        return ["replay", str(save), "--report", str(report), "--style", style, "--force"]


SQUAD_A = (
    "Sgt Rook elite 4 (she), Hawk elite 2 (he), Dusty regular 2 (she), Sparks regular 1 (he), "
    "Tiny conscript 1 (he), Kid conscript 0 (she)"
)
SQUAD_B = (
    "Cpt Vex elite 5 (he), Mako elite 2 (she), Brick regular 1 (he), Fang regular 1 (she), "
    "Jinx conscript 0 (xe/xem/xyr), Moss conscript 0 (he)"
)
MOBS_A = (
    "Brakka=Warrior (she), Ysolde=Ranger (she), Mother Wren=Mystic (she), Tarn=Spearwarden (he)"
)
MOBS_B = (
    "Ugrak=Chieftain (he), Red Spears=4 Tribal Warrior under Ugrak, "
    "Bone Shields=4 Tribal Warrior under Ugrak"
)
SEEDS_A = "order=2, Knights (they), Swordsmen, Spearmen, Archers (they), Light Horse"

SPECS = (
    Spec(
        "battle-of-ixu",
        7,
        ("--bot", "A", "--bot", "B"),
        {"Kuote": "she"} | {god: "he" for god in ("Tutok", "Ijoi", "Tuze", "Keryx", "Eyox")},
    ),
    Spec(
        "squad-alpha",
        5,
        ("--team-a", SQUAD_A, "--team-b", SQUAD_B, "--name-a", "Alpha", "--name-b", "Bravo"),
        {name: "she" for name in ("Sgt Rook", "Dusty", "Kid", "Mako", "Fang")}
        | {name: "he" for name in ("Hawk", "Sparks", "Tiny", "Cpt Vex", "Brick", "Moss")}
        | {"Jinx": "xe/xem/xyr"},
    ),
    Spec(
        "mobs-and-morale",
        7,
        ("--team-a", MOBS_A, "--team-b", MOBS_B)
        + ("--name-a", "The Lantern Company", "--name-b", "The Grey Hill Tribe"),
        {"Brakka": "she", "Ysolde": "she", "Mother Wren": "she", "Tarn": "he", "Ugrak": "he"},
    ),
    Spec(
        "seeds-of-wars",
        3,
        ("--team-a", SEEDS_A, "--name-a", "Northern Host"),
        {"A1 Knights": "they", "A4 Archers": "they"},
        default="it",
    ),
    Spec(
        "tug-of-wargods",
        29,
        ("--team-a", "Sebeki (she), 2 Asar (he)", "--name-a", "Greentoe")
        + ("--team-b", "Heru (he), Asar, Basti (she)", "--name-b", "Clearsky"),
        {"Sebeki": "she", "Heru": "he", "Basti": "she"},  # not Asar: Clearsky's is "they"
    ),
)


def wargame(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "wargame_cli", *args], check=True, capture_output=True)


def make(spec: Spec) -> Path:
    """Play the spec's game and write its brief report over the kept one."""
    with tempfile.TemporaryDirectory() as folder:
        save = Path(folder) / "game.json"
        wargame(*spec.play(save))
        wargame(*spec.replay(save, spec.path))
    return spec.path


def main(argv: list[str]) -> None:
    for spec in SPECS:
        if not argv or spec.ruleset in argv:
            print(make(spec))


if __name__ == "__main__":
    main(sys.argv[1:])
