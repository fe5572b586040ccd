"""Reproduce docs/report-screenshot.png: a 3-model offline run, its report.html checked and
photographed in headless Chromium (Debian: ``apt-get install -y chromium``).

    python scripts/screenshot_report.py [--out docs/report-screenshot.png] [--keep DIR]

The run uses the demo models of tests/report/demo_conftest.py (builtin/template and two
deliberately imperfect summarizers, judged by builtin/rules and the demo/hasty juror) on the
whole public suite. The page must load with no script error, no console error and no
blocked request, and draw its charts, or the script exits 1 without writing the picture.
The helpers here are also used by tests/test_report_e2e.py.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO_CONFTEST = ROOT / "tests" / "report" / "demo_conftest.py"
SUITE_TEST = ROOT / "cases" / "test_summaries.py"
DEMO_MODELS = ("builtin/template", "demo/careless", "demo/sloppy")
DEMO_JURY = "builtin/rules,demo/hasty"
# no network, no first-run work, no background services: the page must stand alone
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars")
_CONSOLE = re.compile(r":CONSOLE[:(]\d+\)?\]|Uncaught|Refused to")


def find_chromium() -> str | None:
    """The Chromium executable on PATH (or $CHROMIUM), or None."""
    candidates = [os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser",
                  "google-chrome", "google-chrome-stable"]
    for name in candidates:
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _run_chromium(chromium: str, args: list[str], timeout: float = 90) -> tuple[str, str]:
    with tempfile.TemporaryDirectory(prefix="rwe-chromium-") as profile:
        done = subprocess.run(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"chromium exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout, done.stderr


def dump_dom(chromium: str, page: Path) -> tuple[str, list[str]]:
    """The DOM after the page's scripts ran, and the console lines Chromium logged."""
    dom, log = _run_chromium(chromium, ["--enable-logging=stderr", "--v=0",
                                        "--virtual-time-budget=5000", "--dump-dom",
                                        page.resolve().as_uri()])
    return dom, [line for line in log.splitlines() if _CONSOLE.search(line)]


def page_problems(dom: str, console: list[str], charts: int = 1) -> list[str]:
    """What is wrong with a loaded report page (empty when it loaded clean with charts)."""
    problems = [f"console: {line}" for line in console]
    root = re.search(r"<html[^>]*>", dom)
    tag = root.group(0) if root else ""
    if 'data-rwe-status="ready"' not in tag:
        problems.append("the page's script did not finish (no data-rwe-status=ready)")
    errors = re.search(r'data-rwe-errors="(\d+)"', tag)
    if errors is None or errors.group(1) != "0":
        box = re.search(r'<div id="rwe-errors">(.*?)</div>', dom, re.S)
        problems.append("script errors: " + (box.group(1) if box else "(error hook missing)"))
    drawn = re.search(r'data-rwe-charts="(\d+)"', tag)
    if drawn is None or int(drawn.group(1)) < charts:
        problems.append(f"expected at least {charts} charts, found "
                        f"{drawn.group(1) if drawn else 'none'}")
    if dom.count("<rect") < charts:
        problems.append("the charts have no bars")
    return problems


def screenshot(chromium: str, page: Path, png: Path, size: str = "1280,2000") -> None:
    """Photograph the top of the page at ``size`` (width,height)."""
    png.parent.mkdir(parents=True, exist_ok=True)
    _run_chromium(chromium, [f"--window-size={size}", "--virtual-time-budget=5000",
                             f"--screenshot={png.resolve()}", page.resolve().as_uri()])
    if not png.exists() or png.stat().st_size == 0:
        raise RuntimeError(f"chromium wrote no screenshot to {png}")


def make_demo_project(folder: Path, studies: Path = ROOT / "cases" / "studies",
                      models: tuple[str, ...] = DEMO_MODELS, jury: str = DEMO_JURY) -> None:
    """A project running the suite's test over ``studies`` with the demo models."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DEMO_CONFTEST, folder / "conftest.py")
    shutil.copy(SUITE_TEST, folder / "test_summaries.py")
    (folder / "pytest.ini").write_text(
        "[pytest]\n"
        f"rwe_models = {' '.join(models)}\n"
        f"rwe_jury = {jury}\n"
        f"rwe_cases = {studies}\n"
        f"rwe_store = {folder / 'store'}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report-screenshot.png")
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        print("screenshot_report: no chromium on PATH; apt-get install -y chromium",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="rwe-demo-") as scratch:
        project = args.keep or Path(scratch)
        make_demo_project(project)
        report = project / "report"
        # The demo models fail some tests on purpose: the exit status is 1 by design.
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "--rwe-report", str(report)], cwd=project, check=False,
                       stdout=subprocess.DEVNULL)
        page = report / "report.html"
        if not page.exists():
            print(f"screenshot_report: the run wrote no {page}", file=sys.stderr)
            return 1
        dom, console = dump_dom(chromium, page)
        problems = page_problems(dom, console, charts=5)
        if problems:
            print("screenshot_report: report.html is broken:\n  " + "\n  ".join(problems),
                  file=sys.stderr)
            return 1
        screenshot(chromium, page, args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
