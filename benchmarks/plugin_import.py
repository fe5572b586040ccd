"""What loading the pytest plugin costs: ``python -X importtime``, against ``import pytest``.

pytest imports every installed ``pytest11`` entry point in every run of a project, so this is
a cost paid by every test run of anyone who installs pytest-rwe. Each sample is a fresh
interpreter started in a temporary folder (a ``-c`` run puts the current folder first on
``sys.path``, so starting in a checkout would measure that checkout instead of the installed
package), and prints ``-X importtime`` to stderr:

- ``import pytest``: the cumulative time of the ``pytest`` row;
- ``import pytest, pytest_rwe.plugin``: the sum of the cumulative times of the top-level rows
  imported after pytest, that is what loading the plugin adds to pytest's own import.

The figures are medians over ``--runs`` samples of each, interleaved; the machine's load
average is printed beside them, because the machine is shared and the figures are noisy.

    python benchmarks/plugin_import.py --runs 21            # the figures of docs/benchmarks.md
    python benchmarks/plugin_import.py --runs 1 --modules   # and the modules the plugin loads
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

PLUGIN = "pytest_rwe.plugin"


def _rows(stderr: str) -> list[tuple[int, int, str]]:
    """(cumulative microseconds, indent level, module) of every ``import time:`` row."""
    rows = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|", 2)
        level = (len(name) - len(name.lstrip(" "))) // 2
        rows.append((int(cumulative), level, name.strip()))
    return rows


def _sample(code: str, folder: str) -> str:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stderr


def pytest_ms(folder: str) -> float:
    """Cumulative milliseconds of ``import pytest`` in a fresh interpreter."""
    rows = _rows(_sample("import pytest", folder))
    return next(us for us, level, name in rows if name == "pytest" and level <= 1) / 1000


def plugin_ms(folder: str) -> tuple[float, list[str]]:
    """Milliseconds that ``import pytest_rwe.plugin`` adds after pytest, and the new modules.

    Top-level rows (indent 0 or 1 in ``-X importtime``) that come after ``pytest``'s row are
    what the plugin import pulled in that pytest had not; their cumulative times add up.
    """
    rows = _rows(_sample(f"import pytest, {PLUGIN}", folder))
    start = next(i for i, (_, lv, name) in enumerate(rows) if name == "pytest" and lv <= 1)
    after = rows[start + 1 :]
    top = min((level for _, level, _ in after), default=0)
    total = sum(us for us, level, _ in after if level == top) / 1000
    return total, [name for _, _, name in after]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="samples of each (default 21)")
    parser.add_argument("--modules", action="store_true", help="list the modules loaded")
    args = parser.parse_args(argv)
    pytest_times: list[float] = []
    plugin_times: list[float] = []
    modules: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            pytest_times.append(pytest_ms(folder))
            took, modules = plugin_ms(folder)
            plugin_times.append(took)
    base, plugin = statistics.median(pytest_times), statistics.median(plugin_times)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"python {sys.version.split()[0]}, load average {load}, {args.runs} runs each")
    print(f"import pytest:                      {base:6.1f} ms (median)")
    print(f"import pytest_rwe.plugin on top:    {plugin:6.1f} ms (median) = {plugin / base:.0%}")
    ours = sorted({m for m in modules if m.startswith("pytest_rwe")})
    print(f"modules loaded after pytest: {len(modules)}, of them pytest_rwe: {len(ours)}")
    if args.modules:
        for name in modules:
            print(f"  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
