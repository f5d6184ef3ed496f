#!/usr/bin/env python3
"""check_links.py SOURCE_DIR: every relative link of the Markdown files of the project
(README.md, docs/, and the READMEs under tests/, bench/, samples/, python/) names a file or
folder that exists, and a link with a #fragment names a heading of that page."""
import os
import re
import sys

ROOT = sys.argv[1]
LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCED = re.compile(r"```.*?```", re.S)
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def markdown_files():
    for top in ["README.md", "docs", "tests", "bench", "samples", "python", "fuzz"]:
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            yield path
        for folder, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if d not in ("node_modules", "data", "fixtures")]
            for name in files:
                if name.endswith(".md"):
                    yield os.path.join(folder, name)


def anchors(path):
    """GitHub's heading anchors of a Markdown page."""
    out = set()
    with open(path, encoding="utf-8") as f:
        text = FENCED.sub("", f.read())
    for line in text.splitlines():
        m = re.match(r"#+\s+(.*)", line)
        if m:
            title = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
            out.add(title.replace(" ", "-"))
    return out


failures = []
for page in markdown_files():
    with open(page, encoding="utf-8") as f:
        text = CODE.sub("", f.read())
    for m in LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if re.match(r"[a-z]+:", target) or target.startswith("<"):
            continue
        path, _, fragment = target.partition("#")
        where = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        rel = os.path.relpath(page, ROOT)
        if not os.path.exists(where):
            failures.append("%s: link to %s: no such file" % (rel, target))
        elif fragment and where.endswith(".md") and fragment not in anchors(where):
            failures.append("%s: link to %s: no such heading" % (rel, target))
for line in failures:
    print(line)
sys.exit(1 if failures else 0)
