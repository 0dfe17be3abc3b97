"""bench_lab.py --ray: the lab's sweep on a local Ray cluster, for the choice of engine only
(`simulate --cluster` uses Dask; bench/README.md says why). Prints the result's JSON (the
tallies' summaries) and how long the cluster took to start.

    python bench/ray_sweep.py GAMES CORES
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli import registry  # noqa: E402
from wargame_cli.cli.simulate import setup_for  # noqa: E402
from wargame_cli.simulate import batch, lab  # noqa: E402
from wargame_cli.simulate.cluster import play_task  # noqa: E402
from wargame_cli.simulate.settings import swept  # noqa: E402


def main() -> None:
    import ray

    games, cores = int(sys.argv[1]), int(sys.argv[2])
    ruleset = registry.get("squad-alpha")
    chosen = swept(ruleset.options, [], "max_turns=5..19:2")
    planned = [lab.Planned(s, setup_for(ruleset, s.options, None, None)) for s in chosen]
    jobs = lab.setting_jobs(ruleset.id, planned, 1, games)
    started = time.perf_counter()
    ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_task)
    ray.get(remote.remote(jobs[0], 0, 1))
    up = time.perf_counter() - started
    work = batch.tasks(jobs)
    futures = [remote.remote(jobs[n], a, b) for n, a, b in work]
    totals = [batch.Tally() for _ in jobs]
    for (n, _, _), tally in zip(work, ray.get(futures), strict=True):
        totals[n].merge(tally)
    ray.shutdown()
    rows = lab.settings_result(planned, totals)
    print(json.dumps({"startup_s": up, "settings": rows}))


if __name__ == "__main__":
    main()
