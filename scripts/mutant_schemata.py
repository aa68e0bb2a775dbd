#!/usr/bin/env python3
"""Mutant schemata: every named RTL mutant compiled into one Verilated build.

Each DUT lists its mutants in rtl/<dut>/mutants.yaml:

  mutants:
    - name: vta_alu_add_as_sub          # unique over all DUTs
      file: vta_compute.sv              # relative to rtl/<dut>/
      context: "AluAdd:  alu[o*32 +: 32] = alu_x + alu_y;"   # found exactly once in the file
      original: "alu_x + alu_y"         # found exactly once in the context
      mutated: "alu_x - alu_y"          # what the bug computes instead
      description: "operator swap: ADD subtracts"
      equivalent: "why no test can tell"  # optional: a documented equivalent mutant

The generator numbers the mutants 1..N (DUTs in folder order, mutants in file
order) and writes guarded copies of the affected files: each original
expression becomes

  ((cosim_mutant_pkg::id == 32'dN) ? (mutated) : (original))

and a package cosim_mutant_pkg holds `id`, set once at time 0 from the DPI
function cosim_mutant_select() (tb/mutant: the environment variable
COSIM_MUTANT, 0 or unset = no mutant). Guards may nest (a mutant inside the
original expression of another) or share one expression; partial overlaps
are an error.

  mutant_schemata.py generate --repo R --out DIR [--skip a,b]
      writes DIR/cosim_mutant_pkg.sv, DIR/rtl/<dut>/<file> (guarded copies),
      DIR/sources.cmake (COSIM_MUTANT_SUBST: original;copy pairs) and
      DIR/mutants.json (id, name, dut, file, line, description, equivalent).
      Exit 1 naming every stale mutant (context or original not found
      exactly once): the configure step stops there.
  mutant_schemata.py apply --repo R --mutant NAME --out DIR
      writes DIR/rtl/<dut>/<file>, a copy of the mutant's file with the
      mutated expression in place of the original, unguarded (a test-only
      Verilated variant that names it: manifest `variants: [{mutant: NAME}]`,
      cmake/mutants.cmake), and DIR/sources.cmake
      (COSIM_MUTANT_APPLIED_SUBST: the original;copy pair). Exit 1 when the
      mutant is unknown or stale.
  mutant_schemata.py check --repo R
      prints the stale mutants (nothing when all apply), exit 1 if any.
  mutant_schemata.py list --repo R
      prints the table of mutants with their ids.
"""

import argparse
import glob
import json
import os
import sys

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("mutant_schemata: python3-yaml is needed (scripts/bootstrap.sh installs it)")

KEYS = {"name", "file", "context", "original", "mutated", "description", "equivalent", "tests"}


class Mutant:
    def __init__(self, mid, dut, d, src):
        self.id = mid
        self.dut = dut
        self.src = src
        missing = [k for k in ("name", "file", "context", "original", "mutated", "description") if k not in d]
        if missing:
            raise ValueError(f"{src}: mutant {d.get('name', '?')}: missing {', '.join(missing)}")
        unknown = set(d) - KEYS
        if unknown:
            raise ValueError(f"{src}: mutant {d['name']}: unknown key(s) {', '.join(sorted(unknown))}")
        self.name = str(d["name"])
        self.file = os.path.normpath(os.path.join("rtl", dut, str(d["file"])))  # ../common/x.sv: a shared primitive
        self.context = str(d["context"])
        self.original = str(d["original"])
        self.mutated = str(d["mutated"])
        self.description = str(d["description"])
        self.equivalent = str(d["equivalent"]) if d.get("equivalent") else ""
        self.tests = d.get("tests")
        self.start = self.end = self.line = None  # span of the original in the file

    def locate(self, text):
        """None when the span was found, else why the mutant is stale."""
        n = text.count(self.context)
        if n != 1:
            return f"context found {n} times in {self.file}"
        m = self.context.count(self.original)
        if m != 1:
            return f"original expression found {m} times in the context"
        if self.original == self.mutated:
            return "mutated expression equals the original"
        self.start = text.index(self.context) + self.context.index(self.original)
        self.end = self.start + len(self.original)
        self.line = text.count("\n", 0, self.start) + 1
        return None

    def row(self):
        return {"id": self.id, "name": self.name, "dut": self.dut, "file": self.file, "line": self.line,
                "description": self.description, "equivalent": self.equivalent, "tests": self.tests}


def mutant_lists(repo):
    """The mutant list of every DUT: the file its manifest names under `mutants:`."""
    lists = []
    for manifest in sorted(glob.glob(os.path.join(repo, "rtl", "*", "*.yaml"))):
        folder = os.path.dirname(manifest)
        if os.path.splitext(os.path.basename(manifest))[0] != os.path.basename(folder):
            continue  # not the manifest (rtl/<dut>/<dut>.yaml)
        with open(manifest) as f:
            doc = yaml.safe_load(f) or {}
        if isinstance(doc, dict) and isinstance(doc.get("mutants"), str):
            lists.append(os.path.join(folder, doc["mutants"]))
    return lists


def load(repo):
    """All mutants of all DUTs, numbered; raises ValueError on a malformed list."""
    mutants, seen = [], set()
    for path in mutant_lists(repo):
        dut = os.path.basename(os.path.dirname(path))
        rel = os.path.relpath(path, repo)
        with open(path) as f:
            doc = yaml.safe_load(f) or {}
        if not isinstance(doc, dict) or not isinstance(doc.get("mutants"), list):
            raise ValueError(f"{rel}: expected a mapping with a 'mutants' list")
        for d in doc["mutants"]:
            if not isinstance(d, dict):
                raise ValueError(f"{rel}: every mutant is a mapping")
            m = Mutant(len(mutants) + 1, dut, d, rel)
            if m.name in seen:
                raise ValueError(f"{rel}: duplicate mutant name {m.name}")
            seen.add(m.name)
            mutants.append(m)
    return mutants


def locate_all(repo, mutants):
    """{name: why} of the stale mutants; the others get their spans."""
    stale, texts = {}, {}
    for m in mutants:
        full = os.path.join(repo, m.file)
        if m.file not in texts:
            texts[m.file] = open(full).read() if os.path.exists(full) else None
        if texts[m.file] is None:
            stale[m.name] = f"{m.file} does not exist"
            continue
        why = m.locate(texts[m.file])
        if why:
            stale[m.name] = why
    return stale, texts


def render(text, start, end, spans):
    """text[start:end] with the guarded spans inside it substituted.

    spans: mutants whose spans lie within [start, end), sorted by (start, -length)."""
    out, pos, i = [], start, 0
    while i < len(spans):
        m = spans[i]
        if m.start < pos:
            raise ValueError(f"mutant {m.name} partly overlaps another mutant's expression")
        # Mutants on the same span share one guard chain; mutants strictly
        # inside it are rendered inside the original.
        same = [m]
        j = i + 1
        while j < len(spans) and spans[j].start == m.start and spans[j].end == m.end:
            same.append(spans[j])
            j += 1
        inner = []
        while j < len(spans) and spans[j].start < m.end:
            if spans[j].end > m.end:
                raise ValueError(f"mutants {m.name} and {spans[j].name} partly overlap")
            inner.append(spans[j])
            j += 1
        orig = render(text, m.start, m.end, inner)
        guarded = f"({orig})"
        for s in reversed(same):
            guarded = f"((cosim_mutant_pkg::id == 32'd{s.id}) ? ({s.mutated}) : {guarded})"
        out.append(text[pos:m.start])
        out.append(guarded)
        pos = m.end
        i = j
    out.append(text[pos:end])
    return "".join(out)


PKG = """// Generated by scripts/mutant_schemata.py (schemata build only): the mutant
// selected for this run, read once at time 0 (COSIM_MUTANT, 0 = none).
package cosim_mutant_pkg;
  import "DPI-C" function int unsigned cosim_mutant_select();
  int unsigned id = cosim_mutant_select();
endpackage
"""


def write_if_changed(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == data:
                return
    with open(path, "w") as f:
        f.write(data)


def write_subst(out, var, pairs):
    """out/sources.cmake: the CMake list <var> of original;copy pairs."""
    lines = ["# Generated by scripts/mutant_schemata.py: original;copy pairs.", f"set({var}"]
    lines += [f'  "{a}" "{b}"' for a, b in pairs]
    lines.append(")")
    write_if_changed(os.path.join(out, "sources.cmake"), "\n".join(lines) + "\n")


def apply(repo, out, name):
    """One mutant applied unguarded to a copy of its file."""
    mutants = [m for m in load(repo) if m.name == name]
    if not mutants:
        print(f"mutant_schemata: unknown mutant {name}", file=sys.stderr)
        return 1
    m = mutants[0]
    stale, texts = locate_all(repo, mutants)
    if stale:
        print(f"mutant_schemata: stale mutant {name}: {stale[name]} (update its rtl/*/mutants.yaml entry)",
              file=sys.stderr)
        return 1
    text = texts[m.file]
    header = f"// Generated from {m.file} by scripts/mutant_schemata.py: mutant {name} applied.\n"
    dst = os.path.join(out, m.file)
    write_if_changed(dst, header + text[:m.start] + f"({m.mutated})" + text[m.end:])
    write_subst(out, "COSIM_MUTANT_APPLIED_SUBST", [(os.path.join(repo, m.file), dst)])
    return 0


def generate(repo, out, skip):
    mutants = load(repo)
    unknown = sorted(set(skip) - {m.name for m in mutants})
    if unknown:
        print(f"mutant_schemata: unknown mutant(s) to skip: {', '.join(unknown)}", file=sys.stderr)
        return 1
    stale, texts = locate_all(repo, mutants)
    stale = {k: v for k, v in stale.items() if k not in skip}
    if stale:
        for name, why in stale.items():
            print(f"mutant_schemata: stale mutant {name}: {why} (update its rtl/*/mutants.yaml entry)",
                  file=sys.stderr)
        return 1
    active = [m for m in mutants if m.name not in skip]
    subst = []
    for rel in sorted({m.file for m in active}):
        spans = sorted((m for m in active if m.file == rel), key=lambda m: (m.start, -(m.end - m.start)))
        text = texts[rel]
        try:
            guarded = render(text, 0, len(text), spans)
        except ValueError as e:
            print(f"mutant_schemata: {rel}: {e}", file=sys.stderr)
            return 1
        header = f"// Generated from {rel} by scripts/mutant_schemata.py: mutant schemata copy.\n"
        dst = os.path.join(out, rel)
        write_if_changed(dst, header + guarded)
        subst.append((os.path.join(repo, rel), dst))
    write_if_changed(os.path.join(out, "cosim_mutant_pkg.sv"), PKG)
    write_subst(out, "COSIM_MUTANT_SUBST", subst)
    rows = [m.row() for m in mutants if m.name not in skip]
    write_if_changed(os.path.join(out, "mutants.json"), json.dumps(rows, indent=1) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["generate", "apply", "check", "list"])
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--out", help="generate: output folder (in the build tree)")
    ap.add_argument("--skip", default="", help="generate: comma-separated mutants left out (stale ones)")
    ap.add_argument("--mutant", help="apply: the mutant's name")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    try:
        if args.command == "generate":
            if not args.out:
                ap.error("generate needs --out")
            return generate(repo, os.path.abspath(args.out), [s for s in args.skip.split(",") if s])
        if args.command == "apply":
            if not args.out or not args.mutant:
                ap.error("apply needs --out and --mutant")
            return apply(repo, os.path.abspath(args.out), args.mutant)
        mutants = load(repo)
    except (ValueError, OSError, yaml.YAMLError) as e:
        print(f"mutant_schemata: {e}", file=sys.stderr)
        return 1
    stale, _ = locate_all(repo, mutants)
    if args.command == "check":
        for name, why in stale.items():
            print(f"{name}\t{why}")
        return 1 if stale else 0
    for m in mutants:
        state = f"STALE: {stale[m.name]}" if m.name in stale else f"{m.file}:{m.line}"
        eq = "  [equivalent]" if m.equivalent else ""
        print(f"{m.id:3d} {m.name:<32} {state}  -- {m.description}{eq}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
