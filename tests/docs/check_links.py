#!/usr/bin/env python3
"""Every relative link of README.md and docs/*.md names a file that exists,
and every #anchor a heading of the page it points to.

    tests/docs/check_links.py [REPO]

Links are Markdown inline links `[text](target)` outside code; external
ones (http:, https:, mailto:) are not followed. Anchors follow GitHub's
rule: the heading in lower case, punctuation other than `-` and `_` dropped,
spaces as `-`, `-1`, `-2` ... for repeats. Exit 1 listing every broken link
as FILE:LINE: target: why.
"""

import os
import re
import sys

REPO = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else \
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)")


def strip_code(line, in_fence):
    """The line without inline code spans; None inside a fenced block."""
    if in_fence:
        return None
    return re.sub(r"`[^`]*`", "", line)


def slug(heading):
    s = re.sub(r"`", "", heading.strip()).lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out, seen, fence = set(), {}, False
    with open(path) as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(m.group(1))
                k = seen.get(s, 0)
                out.add(s if k == 0 else f"{s}-{k}")
                seen[s] = k + 1
    return out


def pages():
    out = [os.path.join(REPO, "README.md")]
    for root, _, files in os.walk(os.path.join(REPO, "docs")):
        out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
    return out


def main():
    broken, count = [], 0
    for page in pages():
        fence = False
        with open(page) as f:
            lines = f.readlines()
        for no, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            text = strip_code(line, fence)
            if text is None:
                continue
            for target in LINK.findall(text):
                if re.match(r"[a-z]+:", target):
                    continue
                count += 1
                where = f"{os.path.relpath(page, REPO)}:{no}: {target}"
                file, _, frag = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file else page
                if not os.path.exists(dest):
                    broken.append(f"{where}: no such file")
                elif not os.path.abspath(dest).startswith(REPO + os.sep):
                    broken.append(f"{where}: outside the repository")
                elif frag and (not dest.endswith(".md") or frag not in anchors(dest)):
                    broken.append(f"{where}: no heading with anchor #{frag}")
    for b in broken:
        print(f"check_links: {b}", file=sys.stderr)
    if broken:
        return 1
    print(f"check_links: {count} relative links in {len(pages())} pages, all resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
