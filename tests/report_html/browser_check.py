#!/usr/bin/env python3
"""report.html in a real browser: runs one scenario per target through
`cosim run`, loads each page in Debian's chromium (headless) and checks,
from the DOM chromium built, that the engine timeline has the target's
number of lanes and that every busy lane has non-empty bars; saves a
screenshot of each page beside it. Then the model pages (issue 32 item 5),
measured in a 1,240 px window by a copy of the page with a script added:
the Layers table's headers are designed labels, not report.json's keys;
the table fits (no horizontal overflow); one row per operator in op order,
CPU operators (the delegate's "not_supported" too) with their shapes;
only a false bit_exact is tinted as failed, null or absent reads "—" in a
neutral row; the per-layer SNR cells equal report.json's, rounded as
shown; the network row and the memory wait line agree with report.json. Exits 77 (CTest: skipped) with a message
when chromium is not installed (scripts/bootstrap.sh installs it), 1 when
it is missing in CI (CI=true, or COSIM_REQUIRE_BROWSER=1).

Python 3 standard library only.
"""

import argparse
import html
import html.parser
import json
import re
import os
import shutil
import struct
import subprocess
import sys

# scenario -> lanes its DUT declares (tb/vta/core/vta_timeline.cpp, tb/tf2/core/tf2_timeline.cpp,
# tb/tinydnn/core/tinydnn_timeline.cpp)
PAGES = {"conv2d": 9, "tf2_conv3x3": 6, "tinydnn_fwd": 4}
SKIP = 77
# Model scenarios whose Layers table is measured: VTA int8 (CPU operators in
# "not_supported"), tiny-dnn and TF2 float models (CPU operators in "layers").
MODEL_PAGES = ("resnet8", "tinydnn_resnet8", "tf2_resnet8")
WIDTH = 1240

# Appended to a copy of the page: what the browser laid out, as JSON in <pre id="measure">.
MEASURE = """<script>
(function () {
  const t = document.getElementById("layers");
  const out = {doc_scroll: document.documentElement.scrollWidth, doc_client: document.documentElement.clientWidth,
               inner: window.innerWidth};
  if (t) {
    const wrap = t.parentElement;
    out.wrap_scroll = wrap.scrollWidth; out.wrap_client = wrap.clientWidth;
    out.table_right = t.getBoundingClientRect().right;
    out.headers = Array.from(t.querySelectorAll("th")).map(th => th.innerText.replace(/\\s+/g, " ").trim());
    const data = Array.from(t.rows).filter(tr => tr.cells.length && tr.cells[0].tagName === "TD");
    out.rows = data.map(tr => ({
      cls: tr.className, bg: getComputedStyle(tr.cells[0]).backgroundColor,
      cells: Array.from(tr.cells).map(td => td.innerText.trim())}));
    const probe = data[0].cloneNode(true);
    probe.className = "layer bad";
    data[0].parentElement.appendChild(probe);
    out.bad_bg = getComputedStyle(probe.cells[0]).backgroundColor;
    probe.remove();
  }
  const net = document.getElementById("network");
  if (net) out.network = {cls: net.className, text: net.innerText};
  const mem = document.getElementById("memory-wait");
  if (mem) out.memory_wait = mem.innerText;
  const pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


class Lanes(html.parser.HTMLParser):
    """Lanes (<g class="lane ..." data-lane=...>) and the bars drawn in each."""

    def __init__(self):
        super().__init__()
        self.lanes = {}
        self.current = None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "g" and "lane" in cls:
            self.current = a.get("data-lane", "?")
            self.lanes[self.current] = 0
            self.depth = 0
        elif self.current is not None:
            if tag == "g":
                self.depth += 1
            if tag == "rect" and "bar" in cls and float(a.get("width", "0")) > 0 and float(a.get("height", "0")) > 0:
                self.lanes[self.current] += 1

    def handle_endtag(self, tag):
        if tag == "g" and self.current is not None:
            if self.depth == 0:
                self.current = None
            else:
                self.depth -= 1


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browser(binary, profile, *args):
    # As root the sandbox cannot start; no GPU in CI containers; a profile of
    # its own under the build tree, so HOME is not touched.
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def cosim_run(args, scenario, timeout):
    """`cosim run` on a shipped scenario into --out/<scenario>: that folder, and
    the failure line when cosim did not exit 0 (None when it did)."""
    out = os.path.join(os.path.abspath(args.out), scenario)
    run = subprocess.run([args.cosim, "run", os.path.join(args.scenarios, scenario + ".yaml"), "--out", out],
                         capture_output=True, text=True, timeout=timeout)
    if run.returncode != 0:
        return out, f"{scenario}: cosim exit {run.returncode}: {run.stdout[-500:]}{run.stderr[-500:]}"
    return out, None


def screenshot(binary, profile, out, window, url):
    """report.png of URL beside it, in a WINDOW ("W,H") sized window; an older
    one is removed first so that it cannot stand in for a failed shot."""
    shot = os.path.join(out, "report.png")
    if os.path.exists(shot):
        os.remove(shot)
    return shot, browser(binary, profile, f"--window-size={window}", f"--screenshot={shot}", url)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def measure(binary, profile, page):
    """The page as chromium lays it out in a WIDTH px window (see MEASURE)."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    probe = page.replace(".html", ".measure.html")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", MEASURE + "</body>"))
    dom = browser(binary, profile, f"--window-size={WIDTH},2400", "--dump-dom", "file://" + probe)
    m = re.search(r'<pre id="measure">(.*?)</pre>', dom.stdout, re.S)
    if dom.returncode != 0 or not m:
        raise RuntimeError(f"chromium --dump-dom exit {dom.returncode}: {dom.stderr[-500:]}")
    return json.loads(html.unescape(m.group(1)))


def rows_of(report):
    """report.json's operators in op order: "layers" and the CPU ones of "not_supported"."""
    layers = {l["op_index"]: l for l in report.get("layers", [])}
    for n in report.get("not_supported") or []:
        layers.setdefault(n["op_index"], dict(n, where="cpu"))
    return [layers[k] for k in sorted(layers)]


def check_model_page(scenario, report, m):
    """Issue 32 item 5 on what the browser shows; returns the failures."""
    bad = []
    headers = m.get("headers", [])
    col = {h: i for i, h in enumerate(headers)}
    # Labels that happen to be a key's own name are fine; any other key as a header is not.
    keys = {k for l in report.get("layers", []) for k in l} - {"type", "shapes", "where", "cycles"}
    raw = [h for h in headers if "_" in h or h in keys]
    if raw:
        bad.append(f"{scenario}: report.json keys as Layers headers: {raw}")
    if not any("%" in h for h in headers) or "cycles" not in " ".join(headers):
        bad.append(f"{scenario}: no units in the Layers headers: {headers}")
    if m["doc_scroll"] > m["doc_client"] or m.get("wrap_scroll", 0) > m.get("wrap_client", 0) or \
            m.get("table_right", 0) > m["inner"]:
        bad.append(f"{scenario}: the page overflows {WIDTH} px: document scroll / client width {m['doc_scroll']} / "
                   f"{m['doc_client']}, table box {m.get('wrap_scroll')} / {m.get('wrap_client')}, table's right edge "
                   f"{m.get('table_right')} of {m['inner']}")
    expected = rows_of(report)
    rows = m.get("rows", [])
    if len(rows) != len(expected):
        bad.append(f"{scenario}: {len(rows)} Layers rows, report.json has {len(expected)} operators")
        return bad

    def cell(row, header):
        return row["cells"][col[header]] if header in col else None

    for row, l in zip(rows, expected):
        op = l["op_index"]
        if cell(row, "op") != str(op):
            bad.append(f"{scenario}: row op {cell(row, 'op')}, expected op {op} (op order)")
        if cell(row, "shapes") != l.get("shapes"):
            bad.append(f"{scenario}: op {op} ({l.get('where')}) shapes {cell(row, 'shapes')!r}, "
                       f"report.json {l.get('shapes')!r}")
        failed = l.get("bit_exact") is False
        tinted = "bad" in row["cls"].split() or row["bg"] == m["bad_bg"]
        if tinted != failed:
            bad.append(f"{scenario}: op {op} bit_exact {l.get('bit_exact')} but the row is "
                       f"{'tinted failed' if tinted else 'not tinted'} ({row['cls']}, {row['bg']})")
        shown = {True: "yes", False: "NO", None: "\u2014"}[l.get("bit_exact")]
        if cell(row, "exact") != shown:
            bad.append(f"{scenario}: op {op} exact cell {cell(row, 'exact')!r}, expected {shown!r}")
        if l.get("where") == "cpu" and cell(row, "where") != "CPU":
            bad.append(f"{scenario}: op {op} runs on the CPU, where cell {cell(row, 'where')!r}")
        # The per-layer drift, rounded as shown (one decimal dB).
        for header, value in (("SNR vs float32 (dB)", (l.get("float32_drift") or {}).get("snr_db")),
                              ("layer SNR (dB)", l.get("layer_snr_db")),
                              ("network SNR (dB)", l.get("network_snr_db")),
                              ("compute bound %", None if l.get("compute_bound") is None else l["compute_bound"] * 100)):
            if isinstance(value, (int, float)) and cell(row, header) != f"{value:.1f}":
                bad.append(f"{scenario}: op {op} {header} {cell(row, header)!r}, report.json {value:.4f}")
    wanted = {"tinydnn_resnet8": "SNR vs float32 (dB)", "tf2_resnet8": "layer SNR (dB)", "resnet8": "compute bound %"}
    if wanted[scenario] not in col:
        bad.append(f"{scenario}: no {wanted[scenario]!r} column: {headers}")
    # The network verdict: the console's top-1 on the page.
    net = m.get("network", {}).get("text", "")
    t = report.get("top1_agreement") or {}
    for ref, n in t.items():
        if ref != "inputs" and f"{n} / {t['inputs']} ({ref})" not in net:
            bad.append(f"{scenario}: network row {net!r} lacks {n} / {t['inputs']} ({ref})")
    if report.get("top1") and f"{report['top1']['agree']} / {report['top1']['inputs']}" not in net:
        bad.append(f"{scenario}: network row {net!r} lacks top-1 {report['top1']['agree']} / {report['top1']['inputs']}")
    if scenario == "tf2_resnet8" and "warn" not in m.get("network", {}).get("cls", ""):
        bad.append(f"{scenario}: the unusable network output is not in the warning style: {m.get('network')}")
    # memory.delay_cycles, defined and as a share of the run.
    w = re.match(r"memory wait\s+([\d\u2009 ]+) cycles \(([\d.]+) % of the run\) in which at least one DRAM access "
                 r"was waiting", m.get("memory_wait", ""))
    if not w or int(re.sub(r"\D", "", w.group(1))) != report["memory"]["delay_cycles"]:
        bad.append(f"{scenario}: memory wait line {m.get('memory_wait')!r}, report.json "
                   f"delay_cycles {report['memory']['delay_cycles']}")
    return bad


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cosim", required=True)
    p.add_argument("--scenarios", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    binary = chromium()
    if binary is None:
        # CI installs it (scripts/bootstrap.sh): there a missing browser is a failure.
        required = os.environ.get("CI") == "true" or os.environ.get("COSIM_REQUIRE_BROWSER") == "1"
        print(f"report_html_browser: {'FAIL' if required else 'SKIPPED'}: chromium is not installed "
              "(apt-get install chromium, or scripts/bootstrap.sh)")
        return 1 if required else SKIP
    profile = os.path.join(os.path.abspath(args.out), "chromium-profile")
    failures = []
    for scenario, expected in PAGES.items():
        out, failure = cosim_run(args, scenario, timeout=120)
        if failure:
            failures.append(failure)
            continue
        page = os.path.join(out, "report.html")
        url = "file://" + page
        dom = browser(binary, profile, "--dump-dom", url)
        if dom.returncode != 0 or "<svg" not in dom.stdout:
            failures.append(f"{scenario}: chromium --dump-dom exit {dom.returncode}: {dom.stderr[-500:]}")
            continue
        parser = Lanes()
        parser.feed(dom.stdout)
        lanes = parser.lanes
        if len(lanes) != expected:
            failures.append(f"{scenario}: {len(lanes)} timeline lanes in the DOM, expected {expected}: {list(lanes)}")
        empty = [name for name, bars in lanes.items() if bars == 0]
        # A lane may be idle throughout (a token queue never filled); most are not.
        if len(empty) > expected // 3:
            failures.append(f"{scenario}: lanes without bars: {empty}")
        shot, s = screenshot(binary, profile, out, "1280,1200", url)
        size = png_size(shot) if os.path.exists(shot) else None
        if s.returncode != 0 or size is None or size[0] < 1000 or os.path.getsize(shot) < 20000:
            failures.append(f"{scenario}: no usable screenshot ({shot}, size {size}): {s.stderr[-300:]}")
        print(f"{scenario}: {len(lanes)} lanes, bars per lane {list(lanes.values())}, screenshot {shot}")
    for scenario in MODEL_PAGES:
        out, failure = cosim_run(args, scenario, timeout=180)
        if failure:
            failures.append(failure)
            continue
        with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
            report = json.load(f)
        page = os.path.join(out, "report.html")
        try:
            m = measure(binary, profile, page)
        except (RuntimeError, ValueError) as e:
            failures.append(f"{scenario}: {e}")
            continue
        failures += check_model_page(scenario, report, m)
        shot, _ = screenshot(binary, profile, out, f"{WIDTH},2400", "file://" + page)
        print(f"{scenario}: {len(m.get('rows', []))} layer rows, headers {m.get('headers')}, "
              f"table {m.get('wrap_scroll')} / {m.get('wrap_client')} px, screenshot {shot}")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
