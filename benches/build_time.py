"""Save the stage times of a fresh clone's CI run as ``benches/results/build.json``.

``.ci/run`` prints ``.ci/run: N s: STAGE`` after each stage of the README's
two commands and ``.ci/run: all stages N s`` at the end; pytest's summary
line gives the test counts. Run it in a fresh clone, keep its output, then:

    git clone … /tmp/fresh && (cd /tmp/fresh && CI=true bash .ci/run) 2>&1 | tee /tmp/ci.log
    python3 benches/build_time.py /tmp/ci.log --commit "$(git -C /tmp/fresh rev-parse --short HEAD)"
    python3 benches/report.py --assemble
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from _report import save

STAGE = re.compile(r"^\.ci/run: (\d+) s: (.+)$")
TOTAL = re.compile(r"^\.ci/run: all stages (\d+) s$")
#: pytest's last line: ``5751 passed, 104 skipped, 1 xfailed in 434.12s (0:07:14)``.
TESTS = re.compile(r"(\d+ passed(?:, \d+ \w+)*) in [\d.]+s")


def parse(log: str) -> tuple[list[dict[str, object]], str | None]:
    """The stages with their seconds (the total last) and pytest's counts."""
    rows: list[dict[str, object]] = []
    tests = None
    for line in log.splitlines():
        line = line.strip()
        if m := STAGE.match(line):
            rows.append({"stage": m.group(2), "time": int(m.group(1))})
        elif m := TOTAL.match(line):
            rows.append({"stage": "all stages", "time": int(m.group(1))})
        elif m := TESTS.search(line):
            tests = m.group(1)
    return rows, tests


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("log", type=Path, help="the output of CI=true bash .ci/run")
    p.add_argument("--commit", default=None, help="the commit the clone ran (default: HEAD here)")
    args = p.parse_args()
    rows, tests = parse(args.log.read_text(errors="replace"))
    if not rows or rows[-1]["stage"] != "all stages":
        p.error(f"{args.log}: no complete .ci/run stage times")
    save("build", "Build and test time", rows, command="CI=true bash .ci/run",
         statistic=None, rounds=None, unit="s", commit=args.commit,
         params={"tests": tests} if tests else {})


if __name__ == "__main__":
    main()
