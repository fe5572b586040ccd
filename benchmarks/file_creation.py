"""What creating a file costs in a folder: the CPU (user + system) per store-like entry.

The response store creates one file per call (a temporary file renamed into place, and the
folders of the layout), so on a filesystem where creating a file is dear, that is a large
part of a live run's CPU. This writes ``--files`` entries of ``--size`` bytes the way the
store does (:func:`pytest_rwe.store.files.atomic_write_text`, ten entries per new folder) in
a temporary folder under each ``--where`` and prints the CPU per entry, first and second
half apart (a cost that fades as a process goes on shows there).

    python benchmarks/file_creation.py --where .rwe-bench --where /var/tmp
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

from pytest_rwe.store.files import atomic_write_text


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def entries(where: Path, files: int, size: int) -> dict[str, float]:
    """CPU ms per entry over each half of ``files`` entries written under ``where``."""
    where.mkdir(parents=True, exist_ok=True)
    base = Path(tempfile.mkdtemp(dir=where, prefix="file-creation-"))
    text = "x" * size
    halves = []
    try:
        for half in range(2):
            start_cpu, start = cpu_s(), time.perf_counter()
            for i in range(files // 2):
                atomic_write_text(base / f"h{half}" / f"folder{i // 10}" / f"{i}.json", text)
            halves.append((1000 * (cpu_s() - start_cpu) / (files // 2),
                           time.perf_counter() - start))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return {"cpu_ms_per_entry_first_half": round(halves[0][0], 3),
            "cpu_ms_per_entry_second_half": round(halves[1][0], 3),
            "wall_s": round(halves[0][1] + halves[1][1], 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--where", type=Path, action="append",
                        help="a folder to write in (repeatable; default: .rwe-bench/)")
    parser.add_argument("--files", type=int, default=1380, help="entries per folder")
    parser.add_argument("--size", type=int, default=1500, help="bytes per entry")
    args = parser.parse_args(argv)
    for where in args.where or [Path(".rwe-bench")]:
        print(json.dumps({str(where): entries(where, args.files, args.size)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
