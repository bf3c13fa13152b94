#!/usr/bin/env python3
"""Draws how costs grow with size (issue 46) from `passkey-bench growth --out GROWTH.json`.

    Tools/plot_growth.py GROWTH.json OUT.png

One panel per group present (`store`, `tenant-sqlite`, `tenant-postgres`, in that order), size on
a log x axis, and each series divided by its own value at its smallest size, so every series
starts at 1 and "flat within 1.2x" is the shaded band. The legend gives each series' absolute
values at its smallest and largest sizes, in its unit.

The JSON is a list of GrowthPoint objects (Sources/passkey-bench/Bench/GrowthPoint.swift):
{"group", "series", "label", "size", "value", "unit"}.
"""

import argparse
import json
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # files only: no display

import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter  # noqa: E402

GROUPS = ("store", "tenant-sqlite", "tenant-postgres")
TITLES = {
    "store": "File store: passkeys",
    "tenant-sqlite": "Tenant on SQLite: users",
    "tenant-postgres": "Tenant on PostgreSQL: users",
}
FLAT = 1.2
# The ratios labelled on the y axis (those in view are shown): the band's edges among powers of two.
RATIO_TICKS = (*(2.0**-k for k in range(10, 0, -1)), 1 / FLAT, 1, FLAT, *(2.0**k for k in range(1, 11)))


def load(path):
    """The points of a growth JSON file, checked for the fields the plot reads."""
    with open(path, encoding="utf-8") as file:
        points = json.load(file)
    if not isinstance(points, list):
        raise ValueError(f"{path}: expected a JSON list of growth points")
    for point in points:
        missing = {"group", "series", "label", "size", "value", "unit"} - set(point)
        if missing:
            raise ValueError(f"{path}: a point lacks {', '.join(sorted(missing))}: {point}")
    return points


def series(points):
    """{group: {series: {"label", "unit", "points": [(size, value), ...] by size}}}, for the
    known groups present, in GROUPS order; points with a value that is not finite are left out."""
    grouped = defaultdict(dict)
    for point in points:
        if point["group"] not in GROUPS or not math.isfinite(point["value"]):
            continue
        entry = grouped[point["group"]].setdefault(
            point["series"], {"label": point["label"], "unit": point["unit"], "points": []}
        )
        entry["points"].append((point["size"], point["value"]))
    for group in grouped.values():
        for entry in group.values():
            entry["points"].sort()
    return {group: grouped[group] for group in GROUPS if group in grouped}


def normalized(entry):
    """A series' values divided by its value at its smallest size: [(size, ratio), ...]."""
    base = entry["points"][0][1]
    return [(size, value / base if base else math.nan) for size, value in entry["points"]]


def absolute(value, unit):
    """A value for the legend: thousands separated, few digits."""
    if abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.3g}"
    return f"{text} {unit}"


def legend_label(entry):
    """'label: first → last unit (×ratio)'."""
    (first_size, first), (last_size, last) = entry["points"][0], entry["points"][-1]
    if first_size == last_size:
        return f"{entry['label']}: {absolute(first, entry['unit'])}"
    ratio = f" (×{last / first:.2f})" if first else ""
    return f"{entry['label']}: {absolute(first, entry['unit'])} → {absolute(last, entry['unit'])}{ratio}"


def size_label(size, _position=None):
    """10³ … 10⁶ for powers of ten, else the number."""
    exponent = math.log10(size) if size > 0 else 0
    if exponent.is_integer():
        return "10" + str(int(exponent)).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
    return f"{size:,.0f}"


def figure(points):
    """The figure: one panel per group present."""
    groups = series(points)
    if not groups:
        raise ValueError("no growth points of a known group (" + ", ".join(GROUPS) + ")")
    fig, axes = plt.subplots(
        len(groups), 1, figsize=(11, 4.8 * len(groups)), squeeze=False, constrained_layout=True
    )
    for axis, (group, entries) in zip(axes[:, 0], groups.items()):
        axis.axhspan(1 / FLAT, FLAT, color="0.9", label=f"flat within {FLAT}×")
        axis.axhline(1, color="0.6", linewidth=0.8)
        for name, entry in entries.items():
            sizes, ratios = zip(*normalized(entry))
            axis.plot(sizes, ratios, marker="o", label=legend_label(entry))
        axis.set_xscale("log")
        axis.set_yscale("log", base=2)
        axis.xaxis.set_major_locator(LogLocator(base=10))
        axis.xaxis.set_major_formatter(FuncFormatter(size_label))
        axis.xaxis.set_minor_formatter(NullFormatter())
        axis.yaxis.set_major_locator(FixedLocator(RATIO_TICKS))
        axis.yaxis.set_minor_formatter(NullFormatter())
        axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _p: f"{value:.3g}×"))
        axis.set_title(TITLES[group])
        axis.set_xlabel("size")
        axis.set_ylabel("relative to the smallest size")
        axis.grid(True, which="major", alpha=0.3)
        axis.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("growth", help="the JSON of passkey-bench growth --out")
    parser.add_argument("out", help="the PNG to write")
    arguments = parser.parse_args(argv)
    try:
        fig = figure(load(arguments.growth))
    except (OSError, ValueError) as error:
        print(f"plot_growth: {error}", file=sys.stderr)
        return 1
    fig.savefig(arguments.out, dpi=110)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
