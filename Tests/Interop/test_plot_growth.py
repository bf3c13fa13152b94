"""Tools/plot_growth.py draws `passkey-bench growth`'s JSON: one panel per group present, each
series relative to its smallest size, with the absolute values in the legend."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "Tools/plot_growth.py"


@pytest.fixture(scope="module")
def plot():
    spec = importlib.util.spec_from_file_location("plot_growth", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def point(group, series, size, value, unit="ops/s"):
    return {"group": group, "series": series, "label": series.replace("-", " "), "size": size, "value": value,
            "unit": unit}


POINTS = [
    point("store", "get-by-id", 10000, 9000.0),
    point("store", "get-by-id", 1000, 10000.0),
    point("store", "first-get", 1000, 40.0, "ms"),
    point("store", "first-get", 10000, 44.0, "ms"),
    point("store", "resident", 1000, float("nan"), "MB"),
    point("tenant-postgres", "login-p99", 1000, 5.0, "ms"),
    point("tenant-postgres", "login-p99", 1000000, 6.0, "ms"),
    point("elsewhere", "ignored", 1000, 1.0),
]


def test_series_are_grouped_sorted_and_normalized_to_their_smallest_size(plot):
    groups = plot.series(POINTS)
    assert list(groups) == ["store", "tenant-postgres"]  # GROUPS order; absent and unknown groups left out
    assert "resident" not in groups["store"]  # no finite value to draw
    get = groups["store"]["get-by-id"]
    assert get["points"] == [(1000, 10000.0), (10000, 9000.0)]
    assert plot.normalized(get) == [(1000, 1.0), (10000, 0.9)]
    assert plot.legend_label(get) == "get by id: 10,000 ops/s → 9,000 ops/s (×0.90)"


def test_one_panel_per_group_present(plot):
    fig = plot.figure(POINTS)
    assert [axis.get_title() for axis in fig.axes] == ["File store: passkeys", "Tenant on PostgreSQL: users"]
    assert fig.axes[0].get_xscale() == "log"
    lines = {line.get_label(): list(line.get_ydata()) for line in fig.axes[0].get_lines()}
    assert lines["first get: 40.0 ms → 44.0 ms (×1.10)"] == pytest.approx([1.0, 1.1])


def test_the_command_writes_a_png_and_refuses_what_is_not_growth_json(tmp_path):
    growth = tmp_path / "growth.json"
    growth.write_text(json.dumps(POINTS))
    out = tmp_path / "growth.png"
    done = subprocess.run([sys.executable, SCRIPT, growth, out], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    growth.write_text(json.dumps([{"group": "store", "size": 1000}]))
    refused = subprocess.run([sys.executable, SCRIPT, growth, tmp_path / "no.png"], capture_output=True, text=True)
    assert refused.returncode == 1
    assert "lacks label, series, unit, value" in refused.stderr
    assert not (tmp_path / "no.png").exists()
