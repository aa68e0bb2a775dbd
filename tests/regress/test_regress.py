#!/usr/bin/env python3
"""Self-tests of scripts/regress against a fake cosim whose outcome is picked
by seed (tests/regress/fake_cosim.py), and of its SLURM path against fake
sbatch/squeue/scancel (tests/regress/fake_slurm.py). Expected statuses and
metrics below are written out by hand from the fake's documented rules."""

import html
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
REGRESS = os.path.join(REPO, "scripts", "regress")
MERGE = os.path.join(REPO, "scripts", "slurm", "merge")
FAKE = os.path.join(HERE, "fake_cosim.py")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(REPO, "tests", "support"))
from procs import alive, children_of, wait_for  # noqa: E402  (tests/support)
HANG_LIMIT = 1.5  # s; the hanging seed must be killed after this

SCENARIOS = {
    "alpha": "name: alpha\n",
    "beta": "name: beta\nfake_mismatch_seeds: [2]\nfake_hang_seeds: [3]\nfake_crash_seeds: [4]\n",
    "gamma": "name: gamma\nfake_bad_input_seeds: [1]\nfake_dut_timeout_seeds: [2]\nfake_noreport_seeds: [3]\n"
             "fake_no_utilization: 1\n",
}
# (scenario, seed) -> status, by the fake's rules above.
EXPECTED = {
    ("alpha", 1): "PASS", ("alpha", 2): "PASS", ("alpha", 3): "PASS", ("alpha", 4): "PASS",
    ("beta", 1): "PASS", ("beta", 2): "FAIL", ("beta", 3): "TIMEOUT", ("beta", 4): "ERROR",
    ("gamma", 1): "ERROR", ("gamma", 2): "TIMEOUT", ("gamma", 3): "ERROR", ("gamma", 4): "PASS",
}


def scenario_dir():
    """A fresh temporary folder with SCENARIOS written to its scenarios/: (folder, scenarios)."""
    tmp = tempfile.mkdtemp(prefix="regress-test-")
    sc = os.path.join(tmp, "scenarios")
    os.makedirs(sc)
    for name, text in SCENARIOS.items():
        with open(os.path.join(sc, name + ".yaml"), "w") as f:
            f.write(text)
    return tmp, sc


def run(args, env=None, cwd=None, timeout=120):
    env = dict(os.environ if env is None else env)
    env.pop("COSIM", None)  # the runner's default binary must come from the arguments
    return subprocess.run([sys.executable, REGRESS] + args, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)


class Sweep(unittest.TestCase):
    """One mixed sweep (12 runs), checked from several sides."""

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.sc = scenario_dir()
        cls.out = os.path.join(cls.tmp, "out")
        cls.junit = os.path.join(cls.tmp, "results.xml")
        cls.proc = run(["--cosim", FAKE, "--scenarios", cls.sc, "--seeds", "4", "--jobs", "4",
                        "--timeout", str(HANG_LIMIT), "--out", cls.out, "--junit", cls.junit], cwd=cls.tmp)
        cls.lines = cls.proc.stdout.splitlines()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_status_is_nonzero_on_failure(self):
        self.assertEqual(self.proc.returncode, 1, self.proc.stdout + self.proc.stderr)

    def test_progress_line_per_run(self):
        rx = re.compile(r"^\[(\d+)/12\] (\w+) seed (\d) (PASS|FAIL|ERROR|TIMEOUT) \d+\.\d s")
        seen = {}
        counters = []
        for l in self.lines:
            m = rx.match(l)
            if m:
                counters.append(int(m.group(1)))
                seen[(m.group(2), int(m.group(3)))] = m.group(4)
        self.assertEqual(counters, list(range(1, 13)))
        self.assertEqual(seen, EXPECTED)

    def table_rows(self):
        rows = {}
        for l in self.lines:
            cells = l.split()
            if len(cells) >= 3 and cells[0] in SCENARIOS and cells[1].isdigit():
                rows[(cells[0], int(cells[1]))] = l
        return rows

    def test_summary_table(self):
        rows = self.table_rows()
        self.assertEqual(set(rows), set(EXPECTED))
        for key, status in EXPECTED.items():
            cells = rows[key].split()
            self.assertEqual(cells[2], status, rows[key])
        # Metrics come from report.json: cycles 1000 + 7 seed, MACs 64 seed, util seed %.
        self.assertRegex(rows[("alpha", 3)], r"alpha\s+3\s+PASS\s+1021\s+192\s+3\.0 %")
        self.assertRegex(rows[("beta", 2)], r"beta\s+2\s+FAIL\s+1014\s+128\s+2\.0 %")
        self.assertRegex(rows[("gamma", 4)], r"gamma\s+4\s+PASS\s+1028\s+256\s+n/a")
        # No report: no metrics, and the exit code is shown.
        self.assertRegex(rows[("gamma", 1)], r"ERROR \(exit 2\)\s+-\s+-\s+n/a")
        self.assertRegex(rows[("beta", 4)], r"ERROR \(exit -11\)")
        self.assertIn("12 runs in", self.proc.stdout)
        self.assertIn("6 pass, 1 fail (mismatch), 0 no check, 3 error, 2 timeout, 0 skipped", self.proc.stdout)
        self.assertIn("regress: 6 passed, 6 failed, 0 skipped", self.lines)

    def test_summary_json(self):
        with open(os.path.join(self.out, "summary.json")) as f:
            s = json.load(f)
        self.assertEqual(s["counts"], {"PASS": 6, "FAIL": 1, "NO CHECK": 0, "ERROR": 3, "TIMEOUT": 2, "SKIP": 0})
        got = {(r["scenario"], r["seed"]): r["status"] for r in s["runs"]}
        self.assertEqual(got, EXPECTED)

    def test_grid_page(self):
        with open(os.path.join(self.out, "regress.html")) as f:
            page = f.read()
        self.assertNotIn("http://", page)
        self.assertNotIn("https://", page)
        self.assertNotIn("<script", page)
        cells = re.findall(r'<td class="run ([A-Z-]+)"', page)
        self.assertEqual(sorted(cells), sorted(s.replace(" ", "-") for s in EXPECTED.values()))
        self.assertEqual(len(re.findall(r"<tr><th>(alpha|beta|gamma)</th>", page)), 3)
        # Each cell links to its run's page when there is one, else to what the run left.
        for href in re.findall(r'href="([^"]+)"', page):
            self.assertTrue(os.path.exists(os.path.join(self.out, href)), href)
            self.assertRegex(href, r"^(alpha|beta|gamma)/seed-[1-4]/(report\.html|report\.json|cosim\.log)$")

    # Issue 32 item 6: the page opens with the failures (name, seed,
    # status, reason, the command that repeats it), before the grid.
    def test_grid_page_opens_with_the_failures(self):
        page = self.read_page()
        self.assertLess(page.index('id="failures"'), page.index('id="grid"'))
        table = page[page.index('id="failures"'):page.index("</table>", page.index('id="failures"'))]
        rows = re.findall(r"<tr><td>([a-z]+)</td><td>(\d+)</td><td class=\"status\">([A-Z ]+)</td>"
                          r"<td class=\"reason\">(.*?)</td><td><code>(.*?)</code></td></tr>", table)
        failing = {k: v for k, v in EXPECTED.items() if v != "PASS"}
        self.assertEqual({(sc, int(seed)): st for sc, seed, st, _, _ in rows}, failing)
        with open(os.path.join(self.out, "summary.json")) as f:
            message = {(r["scenario"], r["seed"]): r["message"] for r in json.load(f)["runs"]}
        for sc, seed, _, reason, cmd in rows:
            self.assertEqual(html.unescape(reason), message[(sc, int(seed))])
            self.assertTrue(reason, (sc, seed))
            self.assertIn(sc, cmd)
            self.assertIn(seed, cmd)

    def read_page(self):
        with open(os.path.join(self.out, "regress.html")) as f:
            return f.read()

    def test_hang_is_killed_near_the_limit(self):
        with open(os.path.join(self.out, "beta", "seed-3", "result.json")) as f:
            r = json.load(f)
        self.assertEqual(r["status"], "TIMEOUT")
        self.assertIsNone(r["exit_code"])
        self.assertGreaterEqual(r["wall_seconds"], HANG_LIMIT)
        self.assertLess(r["wall_seconds"], HANG_LIMIT + 6)

    def test_junit(self):
        root = ET.parse(self.junit).getroot()
        self.assertEqual(root.tag, "testsuites")
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors")), ("12", "1", "5"))
        suites = {s.get("name"): s for s in root.findall("testsuite")}
        self.assertEqual(sorted(suites), ["alpha", "beta", "gamma"])
        self.assertEqual((suites["beta"].get("tests"), suites["beta"].get("failures"),
                          suites["beta"].get("errors")), ("4", "1", "2"))
        self.assertEqual(suites["gamma"].get("errors"), "3")
        for (name, seed), status in EXPECTED.items():
            cases = [c for c in suites[name].findall("testcase") if c.get("name") == f"seed-{seed}"]
            self.assertEqual(len(cases), 1, (name, seed))
            c = cases[0]
            self.assertEqual(c.find("failure") is not None, status == "FAIL", (name, seed))
            self.assertEqual(c.find("error") is not None, status in ("ERROR", "TIMEOUT"), (name, seed))
            out = c.find("system-out").text
            self.assertIn(f"--seed {seed} --out", out)
        fail = [c for c in suites["beta"] if c.get("name") == "seed-2"][0].find("failure")
        # seed 2: 3 * 2 mismatches, first at output[0,0,1,3] 7 vs -3.
        self.assertIn("6 of 1024 elements mismatch", fail.get("message"))
        self.assertIn("output[0,0,1,3]: expected 7, got -3", fail.get("message"))
        err = [c for c in suites["gamma"] if c.get("name") == "seed-1"][0].find("error")
        self.assertIn("bad input", err.get("message"))
        self.assertIn("cosim: error: ", err.get("message"))  # colour codes dropped
        self.assertIn("shapes.input", err.get("message"))
        hang = [c for c in suites["beta"] if c.get("name") == "seed-3"][0].find("error")
        self.assertEqual(hang.get("type"), "timeout")
        crash = [c for c in suites["beta"] if c.get("name") == "seed-4"][0].find("error")
        self.assertIn("SIGSEGV", crash.get("message"))

    def test_rerun_commands_reproduce_each_failure(self):
        text = self.proc.stdout
        self.assertIn("6 run(s) did not pass", text)
        want = {("beta", 2): 1, ("gamma", 1): 2, ("gamma", 2): 3, ("beta", 4): -11}
        for (name, seed), code in want.items():
            m = re.search(rf"^    (\S+ run \S+/{name}\.yaml --seed {seed} --out \S+)$", text, re.M)
            self.assertIsNotNone(m, (name, seed))
            again = subprocess.run(shlex.split(m.group(1)), cwd=self.tmp, capture_output=True, timeout=30)
            self.assertEqual(again.returncode, code, (name, seed))
        # Passing runs are not listed as failures.
        self.assertNotRegex(text, r"^    \S+ run \S+/alpha\.yaml", )

    def test_merge_rebuilds_the_same_verdicts(self):
        merged = os.path.join(self.tmp, "merged.xml")
        p = subprocess.run([MERGE, self.out, "--junit", merged], capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 1)
        a = ET.parse(self.junit).getroot()
        b = ET.parse(merged).getroot()
        self.assertEqual([(c.get("classname"), c.get("name"), [e.tag for e in c]) for c in a.iter("testcase")],
                         [(c.get("classname"), c.get("name"), [e.tag for e in c]) for c in b.iter("testcase")])


class Options(unittest.TestCase):
    def setUp(self):
        self.tmp, self.sc = scenario_dir()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def base(self):
        return ["--cosim", FAKE, "--scenarios", self.sc, "--out", os.path.join(self.tmp, "out")]

    def test_all_pass_exits_zero_and_filter_selects(self):
        p = run(self.base() + ["--filter", "^alp", "--seeds", "3"])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(len(re.findall(r"^\[\d/3\] alpha seed \d PASS", p.stdout, re.M)), 3)
        self.assertNotIn("beta", p.stdout)
        self.assertIn("regress: 3 passed, 0 failed, 0 skipped", p.stdout)

    def test_stale_results_are_not_reused(self):
        p = run(self.base() + ["--filter", "beta", "--seeds", "2", "--jobs", "2"])
        self.assertEqual(p.returncode, 1)
        # Same folder, only seed 1 now: the old seed-2 mismatch must not show up.
        p = run(self.base() + ["--filter", "beta", "--seeds", "1"])
        self.assertEqual(p.returncode, 0, p.stdout)
        root = ET.parse(os.path.join(self.tmp, "out", "junit.xml")).getroot()
        self.assertEqual(root.get("tests"), "1")

    def test_no_match_is_usage_error(self):
        p = run(self.base() + ["--filter", "nothing-matches"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("no scenario", p.stderr)

    def test_bad_regex_is_usage_error(self):
        p = run(self.base() + ["--filter", "("])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--filter", p.stderr)

    def test_missing_cosim_is_usage_error(self):
        p = run(["--build", os.path.join(self.tmp, "nobuild"), "--scenarios", self.sc,
                 "--out", os.path.join(self.tmp, "out")])
        self.assertEqual(p.returncode, 2)
        self.assertIn("no cosim binary", p.stderr)

    def test_make_rerun_for_repo_scenarios(self):
        # A real scenario file of the repo, failed on seed 2 by the fake,
        # standing as the build's own cosim (b/tb/cosim/cosim): `make sim`
        # repeats it.
        env = dict(os.environ, FAKE_COSIM_FAKE_MISMATCH_SEEDS="2")
        own = os.path.join(self.tmp, "b", "tb", "cosim", "cosim")
        os.makedirs(os.path.dirname(own), exist_ok=True)
        if not os.path.exists(own):
            os.symlink(FAKE, own)
        def sweep(cosim, out):
            p = run(["--cosim", cosim, "--filter", "^selftest_vadd$", "--seeds", "2", "--jobs", "2",
                     "--out", os.path.join(self.tmp, out), "--build", os.path.join(self.tmp, "b")],
                    env=env, cwd=self.tmp)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            return p

        p = sweep(own, "out")
        self.assertIn("    make sim SCENARIO=selftest_vadd SEED=2 BUILD=b\n", p.stdout)
        self.assertNotIn("SEED=1", p.stdout)
        # Another binary: `make sim` would run the build's cosim instead, so
        # only the raw command is offered.
        p = sweep(FAKE, "out2")
        self.assertNotIn("make sim", p.stdout)
        self.assertIn("fake_cosim.py run ", p.stdout)


class Slurm(unittest.TestCase):
    """The --slurm path (manifest, array tasks, fragments, merge) on fake SLURM tools."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="regress-slurm-")
        self.sc = os.path.join(self.tmp, "scenarios")
        os.makedirs(self.sc)
        with open(os.path.join(self.sc, "beta.yaml"), "w") as f:
            f.write("name: beta\nfake_mismatch_seeds: [2]\nfake_dut_timeout_seeds: [5]\n")
        bin_dir = os.path.join(self.tmp, "bin")
        os.makedirs(bin_dir)
        for tool in ("sbatch", "squeue", "scancel"):
            os.symlink(os.path.join(HERE, "fake_slurm.py"), os.path.join(bin_dir, tool))
        self.env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"],
                        FAKE_SLURM_DIR=os.path.join(self.tmp, "state"))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def sweep(self, env):
        out = os.path.join(self.tmp, "out")
        p = run(["--slurm", "--cosim", FAKE, "--scenarios", self.sc, "--seeds", "6", "--out", out,
                 "--slurm-poll", "0.2", "--slurm-grace", "0.5"], env=env, cwd=self.tmp)
        return p, ET.parse(os.path.join(out, "junit.xml")).getroot()

    def test_array_sweep_merges_every_task(self):
        p, root = self.sweep(self.env)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"--array=0-5 ")
        self.assertEqual(len(re.findall(r"^\[\d/6\] beta seed \d", p.stdout, re.M)), 6)
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors")), ("6", "1", "1"))
        self.assertIn("regress: 4 passed, 2 failed, 0 skipped", p.stdout)
        self.assertRegex(p.stdout, r"beta\s+4\s+PASS\s+1028\s+256\s+4\.0 %")
        # Each task ran through the array script and left its log.
        with open(os.path.join(self.tmp, "out", "slurm", "task-3.log")) as f:
            self.assertIn("task 1000_3", f.read())

    def test_lost_task_becomes_an_error(self):
        env = dict(self.env, FAKE_SLURM_LOSE="3")
        p, root = self.sweep(env)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(root.get("tests"), "6")
        lost = [c for c in root.iter("testcase") if c.get("name") == "seed-4"][0]  # task 3 = seed 4
        self.assertIn("SLURM task left no result", lost.find("error").get("message"))



class NoCheckAndSkip(unittest.TestCase):
    """A run that compared nothing is a failure (NO CHECK); a scenario that
    cannot run here (model absent) is SKIP, neither a pass nor an error."""

    def sweep(self, text, seeds, extra=()):
        tmp = tempfile.mkdtemp(prefix="regress-nocheck-")
        self.addCleanup(shutil.rmtree, tmp, True)
        sc = os.path.join(tmp, "scenarios")
        os.makedirs(sc)
        with open(os.path.join(sc, "delta.yaml"), "w") as f:
            f.write(text)
        junit = os.path.join(tmp, "results.xml")
        self.out = os.path.join(tmp, "out")
        proc = run(["--cosim", FAKE, "--scenarios", sc, "--seeds", str(seeds), "--jobs", "2",
                    "--out", self.out, "--junit", junit, *extra], cwd=tmp)
        return proc, ET.parse(junit).getroot()

    def test_no_check_fails_the_sweep(self):
        proc, root = self.sweep("name: delta\nfake_no_check_seeds: [1]\nfake_skip_seeds: [2]\n", 3)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertRegex(proc.stdout, r"delta seed 1 NO CHECK .*no check compared any element")
        self.assertIn("1 pass, 0 fail (mismatch), 1 no check, 0 error, 0 timeout, 1 skipped", proc.stdout)
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")),
                         ("3", "1", "0", "1"))
        cases = {c.get("name"): c for c in root.iter("testcase")}
        self.assertEqual(cases["seed-1"].find("failure").get("type"), "no_check")
        self.assertIsNotNone(cases["seed-2"].find("skipped"))
        self.assertIn("not found", cases["seed-2"].find("skipped").get("message"))
        self.assertIsNone(cases["seed-3"].find("failure"))

    # Issue 32 item 6: a fault the testbench injects on purpose is named as
    # such, not as the DUT's protocol error.
    def test_an_injected_fault_is_not_called_a_dut_error(self):
        proc, _ = self.sweep("name: delta\nfake_injected_fault_seeds: [1]\nfake_dut_error_seeds: [2]\n", 2)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        with open(os.path.join(self.out, "summary.json")) as f:
            message = {r["seed"]: r["message"] for r in json.load(f)["runs"]}
        self.assertTrue(message[1].startswith("testbench-injected fault tdata_change: AXI-Stream protocol"), message[1])
        self.assertTrue(message[2].startswith("DUT protocol error: AXI-Stream protocol"), message[2])

    def test_skip_beside_a_pass_is_not_a_failure(self):
        proc, root = self.sweep("name: delta\nfake_skip_seeds: [2]\n", 2)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("regress: 1 passed, 0 failed, 1 skipped", proc.stdout)
        self.assertEqual((root.get("failures"), root.get("errors"), root.get("skipped")), ("0", "0", "1"))
        # The page lists the SKIP with its reason, in words (not a tooltip).
        with open(os.path.join(self.out, "regress.html")) as f:
            page = f.read()
        self.assertIn('<td>delta</td><td>2</td><td class="reason">model x.tflite not found</td>', page)
        self.assertNotIn('id="failures"', page)

    # Issue 31, item 6 (also under the CTest label `faults`): a sweep in
    # which nothing passed proved nothing; only --allow-no-pass accepts it.
    def test_faults_nothing_passed_fails_the_sweep(self):
        proc, root = self.sweep("name: delta\nfake_skip_seeds: [1, 2]\n", 2)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("regress: 0 passed, 0 failed, 2 skipped", proc.stdout)
        self.assertIn("regress: error: nothing passed (2 of 2 runs skipped); --allow-no-pass accepts a sweep "
                      "without a pass\n", proc.stderr)
        self.assertEqual((root.get("failures"), root.get("errors"), root.get("skipped")), ("0", "0", "2"))
        # --merge of that sweep says the same; with --allow-no-pass it is 0.
        merged = run(["--merge", self.out])
        self.assertEqual(merged.returncode, 1, merged.stdout + merged.stderr)
        merged = run(["--merge", self.out, "--allow-no-pass"])
        self.assertEqual(merged.returncode, 0, merged.stdout + merged.stderr)

    def test_faults_allow_no_pass_accepts_an_all_skipped_sweep(self):
        proc, root = self.sweep("name: delta\nfake_skip_seeds: [1, 2]\n", 2, ["--allow-no-pass"])
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("regress: 0 passed, 0 failed, 2 skipped", proc.stdout)
        self.assertNotIn("nothing passed", proc.stderr)


class SweepRecords(unittest.TestCase):
    """Issue 31, item 7 (CTest label `faults`): what a sweep leaves can be
    trusted: one folder per scenario file, no earlier sweep's verdict while a
    sweep runs or after it is killed, an "interrupted" record after SIGINT /
    SIGTERM, and no cosim child outliving the runner, even on SIGKILL."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="regress-records-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.sc = os.path.join(self.tmp, "scenarios")
        os.makedirs(self.sc)
        self.out = os.path.join(self.tmp, "out")
        self.procs = []
        self.children = set()  # cosim children seen (an orphan is no longer found by its parent)
        self.addCleanup(self.kill_leftovers)

    def kill_leftovers(self):
        for p in self.procs:
            for c in set(children_of(p.pid)) | self.children:
                try:
                    os.kill(c, 9)
                except OSError:
                    pass
            if p.poll() is None:
                p.kill()
            p.communicate()

    def scenario(self, name, text):
        with open(os.path.join(self.sc, name), "w") as f:
            f.write(text)

    def args(self, *extra):
        return ["--cosim", FAKE, "--scenarios", self.sc, "--out", self.out, *extra]

    def read(self, name):
        with open(os.path.join(self.out, name)) as f:
            return f.read()

    def test_faults_yaml_and_yml_of_one_stem_get_their_own_folders(self):
        self.scenario("x.yaml", "name: x\n")
        self.scenario("x.yml", "name: x\nfake_bad_input_seeds: [1]\n")
        p = run(self.args("--jobs", "2"), cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("2 runs in", p.stdout)
        self.assertIn("1 pass, 0 fail (mismatch), 0 no check, 1 error", p.stdout)
        for name, status in (("x.yaml", "PASS"), ("x.yml", "ERROR")):
            with open(os.path.join(self.out, name, "seed-1", "result.json")) as f:
                r = json.load(f)
            self.assertEqual((r["scenario"], r["status"]), (name, status))
        root = ET.parse(os.path.join(self.out, "junit.xml")).getroot()
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors")), ("2", "0", "1"))
        self.assertEqual(sorted(s.get("name") for s in root.iter("testsuite")), ["x.yaml", "x.yml"])
        grid = self.read("regress.html")
        self.assertEqual(len(re.findall(r'<td class="run PASS"', grid)), 1)
        self.assertEqual(len(re.findall(r'<td class="run ERROR"', grid)), 1)

    def start_hanging_sweep(self):
        """A green sweep into OUT, then a second one whose seed 1 hangs
        (jobs 1: seed 2 is never started). Returns (process, cosim child pid)
        once that child runs."""
        self.scenario("hang.yaml", "name: hang\n")
        p = run(self.args("--seeds", "2"), cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(json.loads(self.read("summary.json"))["counts"]["PASS"], 2)
        env = dict(os.environ, FAKE_COSIM_FAKE_HANG_SEEDS="1")
        env.pop("COSIM", None)
        proc = subprocess.Popen([sys.executable, REGRESS] + self.args("--seeds", "2", "--jobs", "1"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=self.tmp)
        self.procs.append(proc)
        def cosim_child():
            for c in children_of(proc.pid):
                try:
                    with open(f"/proc/{c}/cmdline", "rb") as f:
                        if b"fake_cosim" in f.read():
                            return c
                except OSError:
                    pass
            return None
        found = []
        self.assertTrue(wait_for(lambda: found.append(cosim_child()) or found[-1], 20),
                        "the sweep started no cosim child")
        child = found[-1]
        self.children.add(child)
        return proc, child

    def assert_incomplete(self):
        root = ET.parse(os.path.join(self.out, "junit.xml")).getroot()
        self.assertEqual((root.get("tests"), root.get("errors")), ("1", "1"))
        self.assertEqual(next(root.iter("error")).get("type"), "incomplete")
        summary = json.loads(self.read("summary.json"))
        self.assertEqual((summary["status"], summary["complete"], summary["planned_runs"]), ("running", False, 2))
        self.assertNotIn("counts", summary)
        grid = self.read("regress.html")
        self.assertIn("Regression: incomplete", grid)
        self.assertNotIn("<td class=\"run", grid)

    def test_faults_sigterm_and_sigint_write_an_interrupted_record_and_kill_the_child(self):
        for sig, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
            with self.subTest(signal=sig.name):
                proc, child = self.start_hanging_sweep()
                self.assert_incomplete()  # the earlier green sweep's records are gone
                proc.send_signal(sig)
                out, err = proc.communicate(timeout=20)
                self.assertEqual(proc.returncode, code, out + err)
                self.assertIn(f"regress: interrupted by {sig.name}", err)
                self.assertTrue(wait_for(lambda: not alive(child), 5), "the cosim child outlived the sweep")
                summary = json.loads(self.read("summary.json"))
                self.assertEqual((summary["status"], summary["complete"]), ("interrupted", False))
                self.assertEqual((summary["counts"]["PASS"], summary["counts"]["ERROR"]), (0, 2))
                root = ET.parse(os.path.join(self.out, "junit.xml")).getroot()
                self.assertEqual((root.get("tests"), root.get("errors")), ("2", "2"))
                errors = {c.get("name"): c.find("error").get("message") for c in root.iter("testcase")}
                self.assertEqual(errors["seed-1"], f"interrupted: the sweep was stopped by {sig.name} during this run")
                self.assertEqual(errors["seed-2"], f"not run: the sweep was stopped by {sig.name}")
                self.assertIn("runs, interrupted</h1>", self.read("regress.html"))
                # No temporary file left behind.
                self.assertEqual([f for f in os.listdir(self.out) if f.endswith(".tmp")], [])

    def test_faults_sigkill_of_the_runner_takes_its_child_with_it(self):
        proc, child = self.start_hanging_sweep()
        proc.kill()
        proc.communicate()
        self.assertTrue(wait_for(lambda: not alive(child), 5),
                        f"cosim child {child} still running 5 s after SIGKILL of regress")
        self.assert_incomplete()  # and the records still say so


def load_regress():
    """scripts/regress as a module (it has no .py suffix)."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("regress_under_test", REGRESS)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class RegisterChecks(unittest.TestCase):
    """A failing reg_check (report.json "register_checks") is the run's
    failure message, not "0 of N elements mismatch"."""

    TEXT = "register CTRL (0x0): read 0x00000004, expected 0x00000002 under mask 0x00000002"

    def report(self, element_mismatches, failing):
        checks = [{"name": "LENGTH", "offset": "0x8", "value": 1024, "expected": 1024, "mask": 4294967295,
                   "held": True, "text": "register LENGTH (0x8): read 0x00000400, expected 0x00000400 under mask "
                                         "0xffffffff"}]
        checks += [{"name": "CTRL", "offset": "0x0", "value": 4, "expected": 2, "mask": 2, "held": False,
                    "text": self.TEXT}] * failing
        return {"status": "mismatch", "dut_errors": [],
                "mismatch": {"count": element_mismatches, "elements": 64, "checks": []},
                "register_checks": {"count": len(checks), "failed": failing, "checks": checks}}

    def test_register_failure_alone_names_the_register(self):
        regress = load_regress()
        status, message = regress.classify(1, False, 60, self.report(0, 1), "/nonexistent.log")
        self.assertEqual(status, "FAIL")
        self.assertEqual(message, self.TEXT)

    def test_several_register_failures_are_counted(self):
        regress = load_regress()
        _, message = regress.classify(1, False, 60, self.report(0, 3), "/nonexistent.log")
        self.assertEqual(message, self.TEXT + " (+2 more)")

    def test_with_element_mismatches_both_are_named(self):
        regress = load_regress()
        _, message = regress.classify(1, False, 60, self.report(5, 1), "/nonexistent.log")
        self.assertTrue(message.startswith("5 of 64 elements mismatch"), message)
        self.assertIn("1 register check(s) failing, first " + self.TEXT, message)

    def test_no_register_checks_keeps_the_element_message(self):
        regress = load_regress()
        report = self.report(2, 0)
        del report["register_checks"]
        _, message = regress.classify(1, False, 60, report, "/nonexistent.log")
        self.assertEqual(message, "2 of 64 elements mismatch")


def without(suite, word):
    """`suite` less the tests whose name contains `word` (unittest's -k only selects)."""
    kept = unittest.TestSuite()
    for test in suite:
        if isinstance(test, unittest.TestSuite):
            kept.addTest(without(test, word))
        elif word not in test.id():
            kept.addTest(test)
    return kept


if __name__ == "__main__":
    # --exclude WORD: every test but those whose name contains WORD (CTest's
    # regress_runner leaves test_faults_* to regress_runner_faults).
    if len(sys.argv) == 3 and sys.argv[1] == "--exclude":
        suite = without(unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]), sys.argv[2])
        if suite.countTestCases() == 0:
            sys.exit(f"test_regress.py: --exclude {sys.argv[2]} leaves no test")
        sys.exit(0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1)
    unittest.main(verbosity=2)
