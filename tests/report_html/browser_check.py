#!/usr/bin/env python3
"""report.html in a real browser: runs one scenario per target through
`cosim run`, loads each page in Debian's chromium (headless) and checks,
from the DOM chromium built, that the engine timeline has the target's
number of lanes and that every busy lane has non-empty bars; saves a
screenshot of each page beside it. Exits 77 (CTest: skipped) with a message
when chromium is not installed (scripts/bootstrap.sh installs it), 1 when
it is missing in CI (CI=true, or COSIM_REQUIRE_BROWSER=1).

Python 3 standard library only.
"""

import argparse
import html.parser
import os
import shutil
import struct
import subprocess
import sys

# scenario -> lanes its DUT declares (tb/vta_bare/vta_lanes.cpp, tb/tf2_bare/tf2_lanes.cpp,
# tb/tinydnn_bare/tinydnn_lanes.cpp)
PAGES = {"conv2d": 9, "tf2_conv3x3": 6, "tinydnn_fwd": 4}
SKIP = 77


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


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


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
        out = os.path.join(os.path.abspath(args.out), scenario)
        run = subprocess.run([args.cosim, "run", os.path.join(args.scenarios, scenario + ".yaml"), "--out", out],
                             capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            failures.append(f"{scenario}: cosim exit {run.returncode}: {run.stdout[-500:]}{run.stderr[-500:]}")
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
        shot = os.path.join(out, "report.png")
        if os.path.exists(shot):
            os.remove(shot)
        s = browser(binary, profile, "--window-size=1280,1200", f"--screenshot={shot}", url)
        size = png_size(shot) if os.path.exists(shot) else None
        if s.returncode != 0 or size is None or size[0] < 1000 or os.path.getsize(shot) < 20000:
            failures.append(f"{scenario}: no usable screenshot ({shot}, size {size}): {s.stderr[-300:]}")
        print(f"{scenario}: {len(lanes)} lanes, bars per lane {list(lanes.values())}, screenshot {shot}")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
