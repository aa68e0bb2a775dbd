#!/usr/bin/env python3
"""Shared testbench code names no DUT port: every port name that a manifest
of the tree resolves (scripts/dutgen.py query port-names: clock, reset,
every interface's pins, status ports) is searched for, as a whole word, in
the code of tb/harness, tb/tlm, tb/axi* and tb/axis (comments and string
literals left out: a port called `interrupt` may be talked about); a hit
fails, naming file, line and port. The binders take their pins from the
generated binding only.

  test_no_port_names.py [MANIFEST...]   extra manifests (the build's testdut)
"""

import os
import re
import sys

_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


def code_of(lines):
    """The lines without comments and string literals (C++ and CMake)."""
    in_block = False
    for line in lines:
        out = ""
        while line:
            if in_block:
                end = line.find("*/")
                if end < 0:
                    line = ""
                    break
                line, in_block = line[end + 2:], False
                continue
            line = _LITERAL.sub('""', line)
            start = line.find("/*")
            cut = line.find("//")
            hashc = line.lstrip().startswith("#") and not line.lstrip().startswith(("#include", "#define", "#if"))
            if hashc:
                line = ""
            if start >= 0 and (cut < 0 or start < cut):
                out += line[:start]
                line, in_block = line[start + 2:], True
                continue
            out += line if cut < 0 else line[:cut]
            line = ""
        yield out

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = ("tb/harness", "tb/tlm", "tb/axis")


def main(argv):
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import dutgen  # noqa: E402
    import dutgen_ports  # noqa: E402
    ms = dutgen.manifests() + [dutgen.load(p) for p in argv[1:]]
    names = sorted({n for m in ms for n in dutgen_ports.port_names(m)})
    if len(names) < 10:
        print(f"expected the port names of every manifest, got {names}")
        return 1
    dirs = [os.path.join(REPO, d) for d in SHARED]
    dirs += [os.path.join(REPO, "tb", d) for d in os.listdir(os.path.join(REPO, "tb")) if d.startswith("axi")]
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    # The search itself must be able to hit: a line as the harness once had it.
    if not pattern.search("    m.clk_i = 0;") or pattern.search("    m.clk_ix = 0;"):
        print("the port-name pattern does not match whole words")
        return 1
    if list(code_of(['m.clk_i = 0;  // clk_i', 'x = "rst_ni"; /* a', 'clk_i */ y;'])) != [
            'm.clk_i = 0;  ', 'x = ""; ', ' y;']:
        print("comments and literals are not stripped as expected")
        return 1
    hits, files = [], 0
    for d in sorted(set(dirs)):
        for root, _, fs in os.walk(d):
            for f in sorted(fs):
                path = os.path.join(root, f)
                files += 1
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for i, line in enumerate(code_of(fh.read().splitlines()), 1):
                        for mt in pattern.finditer(line):
                            hits.append(f"{os.path.relpath(path, REPO)}:{i}: names DUT port {mt.group(1)}")
    for h in hits:
        print(h)
    print(f"{len(names)} port names of {len(ms)} manifests, {files} shared files: {len(hits)} hit(s)")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
