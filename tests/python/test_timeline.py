"""The HTML timeline (pypto-run --timeline, pypto.sim.run(timeline=...)) checked
against the streamed Chrome trace of the same run and against what the programs
must do: one bar per traced op, one arrow per wait from the notify that released
it (in a ring, rank r's wait is released by rank r-1), whole-op collectives
boxed across all ranks, a deadlock's blocked op marked with its cell and values,
a per-rank table, nothing external, and the same bytes for the same seed."""

import json
import os
import re
import resource
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

import pypto
import pypto.ir
import pypto.sim

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
LIT_SIM = os.path.join(ROOT, "tests", "lit", "sim")


def _program(name):
    path = os.path.join(LIT_SIM, name)
    with open(path) as f:
        return pypto.ir.parse(f.read(), path)


class _Page(HTMLParser):
    """Collects every element with its attributes, and the text of the page."""

    def __init__(self):
        super().__init__()
        self.elements = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def by_class(self, tag, cls):
        return [a for t, a in self.elements if t == tag and cls in a.get("class", "").split()]


def _page(path):
    p = _Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p


def _events(path):
    with open(path) as f:
        doc = json.load(f)
    threads = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M"}
    return [e for e in doc["traceEvents"] if e["ph"] == "X"], threads


def _run_ring(tmp_path, seed=5, ranks=4, tag="a"):
    x = (np.arange(ranks * 32) % 13).astype(np.float32).reshape(ranks, 4, 8)
    trace, html = tmp_path / f"{tag}.json", tmp_path / f"{tag}.html"
    res = pypto.sim.run(_program("ring_put.pir"), ranks, {"x": x}, f"random:{seed}",
                        trace_path=str(trace), timeline=str(html), stats=True)
    np.testing.assert_array_equal(res["y"], np.roll(x, 1, axis=0))
    return trace, html, res


def test_bars_match_the_trace_event_for_event(tmp_path):
    trace, html, _ = _run_ring(tmp_path)
    events, _ = _events(trace)
    page = _page(html)
    bars = page.by_class("rect", "bar")
    assert len(bars) == len(events) > 0
    assert sorted(int(b["data-id"]) for b in bars) == sorted(e["args"]["id"] for e in events)
    for cat in ("op", "comm", "wait", "task"):
        assert len(page.by_class("rect", cat)) == sum(e["cat"] == cat for e in events), cat
    # Waits are shaded by how long they blocked: opacity grows with "blocked".
    waits = {e["args"]["id"]: e["args"]["blocked"] for e in events if e["cat"] == "wait"}
    assert len(waits) == 4
    shade = {int(b["data-id"]): float(b["fill-opacity"]) for b in page.by_class("rect", "wait")}
    longest = max(waits, key=waits.get)
    assert shade[longest] == 1.0
    for i, blocked in waits.items():
        assert 0.25 <= shade[i] <= 1.0
        if blocked < waits[longest]:
            assert shade[i] < 1.0


def test_each_wait_has_an_arrow_from_the_notify_of_the_previous_rank(tmp_path):
    ranks = 4
    trace, html, _ = _run_ring(tmp_path, ranks=ranks)
    events, threads = _events(trace)
    by_id = {e["args"]["id"]: e for e in events}
    arrows = _page(html).by_class("line", "arrow")
    waits = [e for e in events if e["cat"] == "wait"]
    assert len(arrows) == len(waits) == ranks
    for a in arrows:
        notify, wait = by_id[int(a["data-from"])], by_id[int(a["data-to"])]
        assert notify["name"] == "pld.system.notify" and wait["cat"] == "wait"
        waiter = int(threads[wait["tid"]].removeprefix("rank"))
        notifier = int(threads[notify["tid"]].removeprefix("rank"))
        assert notifier == (waiter - 1) % ranks
        assert wait["args"]["released_by"] == notify["args"]["id"]
        assert wait["args"]["cell"].endswith(f"of rank {waiter}")
        assert notify["args"]["cell"] == wait["args"]["cell"]


def test_summary_table_counts_per_rank(tmp_path):
    trace, html, res = _run_ring(tmp_path, ranks=3)
    page = _page(html)
    rows = page.by_class("tr", "rank")
    assert [r["data-device"] for r in rows] == ["-1", "0", "1", "2"]
    # Every rank puts one 4x8 FP32 tile (128 bytes) to its neighbour; the stats
    # report counts the same bytes independently.
    for d in range(3):
        assert f"stats: rank {d}: bytes_sent=128 " in res.report
    with open(html, encoding="utf-8") as f:
        doc = f.read()
    for d in range(3):
        row = re.search(rf'<tr class="rank" data-device="{d}">(.*?)</tr>', doc).group(1)
        cols = re.findall(r"<td>(.*?)</td>", row)
        assert cols[0] == f"rank {d}"
        assert int(cols[5]) == 128          # remote bytes moved
        assert int(cols[6]) == 2            # notifies: to the peer, and the reset
        assert int(cols[7]) == 1            # waits


def test_collectives_are_boxed_across_all_ranks(tmp_path):
    ranks = 4
    x = (np.arange(ranks * 16 * 64) % 7).astype(np.float32).reshape(ranks, 16, 64)
    trace, html = tmp_path / "c.json", tmp_path / "c.html"
    res = pypto.sim.run(_program("host_allreduce.pir"), ranks, {"x": x}, "random:2",
                        trace_path=str(trace), timeline=str(html))
    np.testing.assert_array_equal(res["y"][0], x.sum(axis=0))
    events, threads = _events(trace)
    coll = [e for e in events if e["cat"] == "collective"]
    assert len(coll) == ranks and len({threads[e["tid"]] for e in coll}) == ranks
    groups = _page(html).by_class("rect", "group")
    assert len(groups) == 1
    assert float(groups[0]["height"]) == ranks * 26 - 2  # spans every rank's row


def test_deadlock_marks_the_blocked_wait_with_its_cell(tmp_path):
    html = tmp_path / "d.html"
    with pytest.raises(pypto.SimError) as e:
        pypto.sim.run(_program("deadlock.pir"), 4, {}, "random:3", entry="k",
                      inputs_random=True, inputs_seed=1, timeline=str(html))
    assert e.value.exit_code == 3
    page = _page(html)
    blocked = page.by_class("rect", "blocked")
    assert len(blocked) == 1
    labels = [t for t in page.text if "expected >= 1 (Ge), actual 0" in t]
    # the label in the drawing, the tooltip, the deadlock table and the report
    assert any(t.startswith("pld.system.wait: signal 'sig'") for t in labels)
    assert "deadlock: no runnable thread remains" in "".join(page.text)
    tables = page.by_class("table", "deadlock")
    assert len(tables) == 1


def test_page_is_self_contained(tmp_path):
    _, html, _ = _run_ring(tmp_path)
    with open(html, encoding="utf-8") as f:
        doc = f.read()
    assert "<script" not in doc and "<link" not in doc and "@import" not in doc
    assert re.findall(r"(?:src|href)=", doc) == []
    assert set(re.findall(r"https?://[^\"' )]+", doc)) == {"http://www.w3.org/2000/svg"}


def test_same_seed_same_bytes(tmp_path):
    t1, h1, _ = _run_ring(tmp_path, seed=9, tag="a")
    t2, h2, _ = _run_ring(tmp_path, seed=9, tag="b")
    assert t1.read_bytes() == t2.read_bytes()
    assert h1.read_bytes() == h2.read_bytes()
    t3, h3, _ = _run_ring(tmp_path, seed=10, tag="c")
    assert t3.read_bytes() != t1.read_bytes()


def test_timeline_argument_is_checked():
    with pytest.raises(pypto.ArgumentError, match="'timeline' must be a str"):
        pypto.sim.run(_program("ring_put.pir"), 2, {}, timeline=3)


# --trace streams: a long run's trace costs no memory in the executor. A kernel
# loop of N iterations is run with and without --trace; the peak RSS may not
# grow by more than 4 MB (holding them in memory, as before, cost 26 MB here).
LOOP = """import pypto.language as pl


@pl.program
class Loop:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]):
        t: pl.Tile[[8, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 8])
        for i in pl.range(ITERS):
            t = pl.tile.add(t, t)
        o = pl.tile.store(t, [0, 0], y)
        return
"""


def _peak_rss_kb(args):
    code = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code] + args, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[0] == "0", out
    return int(out[1])


def test_trace_is_streamed_not_held(tmp_path):
    iters = 60000
    prog = tmp_path / "loop.pir"
    prog.write_text(LOOP.replace("ITERS", str(iters)))
    run = [os.path.join(os.environ.get("PYPTO_BIN_DIR", ""), "pypto-run"), str(prog), "--ranks", "1", "--entry", "k",
           "--inputs-random=1", "--output-dir", str(tmp_path), "--schedule=random:1"]
    plain = _peak_rss_kb(run)
    traced = _peak_rss_kb(run + ["--trace", str(tmp_path / "t.json")])
    events, _ = _events(tmp_path / "t.json")
    assert sum(e["name"] == "tile.add" for e in events) == iters
    assert traced - plain < 4 * 1024, (plain, traced)
