# The seed's script, for scripts/bench to time hprun against: summarize_hipprof.py from section 10
# ("十、用脚本解析 CSV，而不是手工数几百个 kernel") of the article in
# ../shared/seeds/000_ee347d20da03a66e.txt ("海光 DCU 性能分析实战：用 hipprof 从 API、Kernel 到 PMC
# 定位 PyTorch 瓶颈"). The code is the article's, statement for statement. Only the damage its
# publishing did to the text is undone, so that Python runs it: the indentation (lost) is restored,
# "–>" is "->" again, "–hiptrace" and the other options are "--hiptrace" again, and "\\n", "\\t"
# are "\n", "\t" again. Nothing else is changed. This comment is the only addition.
"""Summarize hipprof CSV exports without loading the browser UI."""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path
from typing import Iterable

CATEGORY_RULES = (
    ("vector_add", ("vector_add",)),
    ("direct_copy", ("direct_copy_kernel",)),
    ("softmax", ("softmax",)),
    ("add", ("cudafunctor_add", "addfunctor", "binary_internal::add")),
    ("layernorm", ("layer_norm", "layernorm")),
    ("gelu", ("gelu",)),
    ("roll", ("roll_cuda",)),
    ("gemm", ("cijk_", "gemm", "addmm")),
    ("convolution", ("conv3d", "convolution", "col_2_image")),
    ("cat_or_index", ("catarray", "index_elementwise", "index_kernel")),
)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open("r", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def as_int(row: dict[str, str], key: str) -> int:
    value = row.get(key, "").strip()
    return int(float(value)) if value else 0


def as_float(row: dict[str, str], key: str) -> float:
    value = row.get(key, "").strip()
    return float(value) if value else 0.0


def classify_kernel(name: str) -> str:
    lowered = name.lower()
    for category, patterns in CATEGORY_RULES:
        if any(pattern in lowered for pattern in patterns):
            return category
    return "other"


def print_api_summary(path: Path, top: int) -> None:
    rows = [row for row in read_csv(path) if row.get("Name") != "Total"]
    rows.sort(key=lambda row: as_int(row, "TotalDurationNs"), reverse=True)
    print("\n[HIP API summary]")
    print("name\tcalls\ttotal_ms\taverage_us\tpercent")
    for row in rows[:top]:
        print(
            f"{row['Name']}\t{as_int(row, 'Calls')}\t"
            f"{as_int(row, 'TotalDurationNs') / 1e6:.6f}\t"
            f"{as_int(row, 'AverageNs') / 1e3:.3f}\t"
            f"{as_float(row, 'Percentage'):.3f}"
        )


def print_kernel_summary(path: Path, top: int) -> None:
    rows = [row for row in read_csv(path) if row.get("Name") != "Total"]
    rows.sort(key=lambda row: as_int(row, "TotalDurationNs"), reverse=True)
    total_ns = sum(as_int(row, "TotalDurationNs") for row in rows)

    print("\n[Kernel summary]")
    if total_ns <= 0:
        print("no non-zero duration rows")
        return
    print("name\tcalls\ttotal_ms\taverage_us\tpercent")
    for row in rows[:top]:
        display_name = row["Name"]
        if len(display_name) > 100:
            display_name = display_name[:97] + "…"
        print(
            f"{display_name}\t{as_int(row, 'Calls')}\t"
            f"{as_int(row, 'TotalDurationNs') / 1e6:.6f}\t"
            f"{as_int(row, 'AverageNs') / 1e3:.3f}\t"
            f"{as_int(row, 'TotalDurationNs') / total_ns * 100:.3f}"
        )

    category_ns: dict[str, int] = defaultdict(int)
    category_calls: dict[str, int] = defaultdict(int)
    for row in rows:
        category = classify_kernel(row["Name"])
        category_ns[category] += as_int(row, "TotalDurationNs")
        category_calls[category] += as_int(row, "Calls")

    print("\n[Pattern-based kernel categories]")
    print("category\tcalls\ttotal_ms\tpercent")
    for category, duration_ns in sorted(
        category_ns.items(), key=lambda item: item[1], reverse=True
    ):
        print(
            f"{category}\t{category_calls[category]}\t"
            f"{duration_ns / 1e6:.6f}\t{duration_ns / total_ns * 100:.3f}"
        )


def sanitize_frame(frame: str) -> str:
    frame = frame.strip()
    if not frame:
        return "unknown"
    if " [" in frame:
        frame = frame.split(" [", 1)[0]
    if "/" in frame:
        prefix, separator, suffix = frame.rpartition("/")
        if separator:
            frame = suffix
    return frame


def is_runtime_frame(frame: str) -> bool:
    lowered = frame.lower()
    return lowered.startswith("python(") or any(
        marker in lowered
        for marker in (
            "libgalaxy",
            "libamdhip",
            "libc.so",
            "libtorch",
            "libpython",
            "python3",
        )
    )


def print_stack_summary(path: Path, top: int) -> None:
    rows = read_csv(path)
    grouped: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for row in rows:
        key = (row.get("str_name", "unknown"), row.get("index", "unknown"))
        grouped[key].append((as_int(row, "stack_sq"), row.get("addrname", "")))

    kernel_launches: dict[str, int] = defaultdict(int)
    kernel_origins: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (kernel_name, _), frames in grouped.items():
        kernel_launches[kernel_name] += 1
        origin = "runtime-only"
        for _, frame in sorted(frames):
            cleaned = sanitize_frame(frame)
            if cleaned and not is_runtime_frame(cleaned):
                origin = cleaned
                break
        kernel_origins[kernel_name][origin] += 1

    print("\n[Kernel stack summary]")
    print("kernel\tlaunches\tmost_common_user_frame")
    for kernel_name, launches in sorted(
        kernel_launches.items(), key=lambda item: item[1], reverse=True
    )[:top]:
        origins = kernel_origins[kernel_name]
        origin = max(origins.items(), key=lambda item: item[1])[0]
        display_name = kernel_name if len(kernel_name) <= 90 else kernel_name[:87] + "…"
        print(f"{display_name}\t{launches}\t{origin}")


def unique_values(rows: Iterable[dict[str, str]], key: str) -> str:
    values = sorted({row.get(key, "").strip() for row in rows if row.get(key, "").strip()})
    return ",".join(values) if values else "n/a"


def print_pmc_summary(path: Path) -> None:
    rows = read_csv(path)
    if not rows:
        print("\n[PMC summary]\nno rows")
        return

    print("\n[PMC resource summary]")
    print(f"records\t{len(rows)}")
    print(f"kernel\t{unique_values(rows, 'KernelName')}")
    for label, key in (
        ("grid_size", "grd"),
        ("workgroup_size", "wgr"),
        ("wave_size", "wave_size"),
        ("arch_vgpr", "arch_vgpr"),
        ("accum_vgpr", "accum_vgpr"),
        ("sgpr", "sgpr"),
        ("lds_bytes", "lds"),
        ("scratch_bytes", "scr"),
        ("lds_bank_conflict", "SQ_LDS_BANK_CONFLICT"),
    ):
        print(f"{label}\t{unique_values(rows, key)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hiptrace", type=Path)
    parser.add_argument("--kernel", type=Path)
    parser.add_argument("--stack", type=Path)
    parser.add_argument("--pmc", type=Path)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()

    if not any((args.hiptrace, args.kernel, args.stack, args.pmc)):
        parser.error("provide at least one hipprof CSV path")
    if args.hiptrace:
        print_api_summary(args.hiptrace, args.top)
    if args.kernel:
        print_kernel_summary(args.kernel, args.top)
    if args.stack:
        print_stack_summary(args.stack, args.top)
    if args.pmc:
        print_pmc_summary(args.pmc)


if __name__ == "__main__":
    main()
