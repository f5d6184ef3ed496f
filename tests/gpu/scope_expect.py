#!/usr/bin/env python3
"""scope_expect.py: what a scoped run of tests/gpu/scope_nvtx.cu must report.

  scope_expect.py ROOT JSON SCOPE [--no-nvtx]
      SCOPE is 'all' (no scope), 'profiler' (--profile-from-start off) or 'nvtx:NAME'
      (--nvtx-range NAME). The readbacks of tests/gpu/scope_nvtx.cu carry a tag after their
      marker, '/* scope: none */', '/* scope: profiler */' or '/* scope: nvtx NAME */'. The
      result JSON must hold exactly one SYNC301 finding (count 1) per readback the SCOPE keeps,
      latent notes aside; each finding inside an NVTX range names it ("extra": {"nvtx": NAME})
      and no other does; with --no-nvtx (NVTX not observed) none does.
Exit status: 0 when it matches, 1 on a mismatch, 2 on a usage or input error.
"""
import json
import os
import re
import sys

SOURCE = "tests/gpu/scope_nvtx.cu"
TAG = re.compile(r"/\* syncscope: (SYNC[0-9]{3}) \*/ /\* scope: (none|profiler|nvtx (\S+)) \*/")


def tagged_lines(root):
    """{line: (rule, kind, range name or None)} of the tagged readbacks."""
    found = {}
    with open(os.path.join(root, SOURCE), encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            match = TAG.search(text)
            if match:
                kind = match.group(2).split()[0]
                found[number] = (match.group(1), kind, match.group(3))
    return found


def main(argv):
    if len(argv) not in (4, 5) or (len(argv) == 5 and argv[4] != "--no-nvtx"):
        print(__doc__, file=sys.stderr)
        return 2
    root, json_path, scope = argv[1], argv[2], argv[3]
    no_nvtx = len(argv) == 5
    try:
        tags = tagged_lines(root)
        with open(json_path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as err:
        print(f"scope_expect: {err}", file=sys.stderr)
        return 2
    if scope == "all":
        kept = set(tags)
    elif scope == "profiler":
        kept = {line for line, (_, kind, _) in tags.items() if kind == "profiler"}
    elif scope.startswith("nvtx:"):
        kept = {line for line, (_, kind, name) in tags.items()
                if kind == "nvtx" and name == scope[5:]}
    else:
        print(f"scope_expect: unknown scope '{scope}'", file=sys.stderr)
        return 2
    errors = []
    seen = set()
    for finding in document.get("findings", []):
        if finding.get("latent") is True:
            continue
        file = finding.get("file") or ""
        line = int(finding.get("line") or 0)
        where = f"{finding.get('ruleId')} {os.path.basename(file)}:{line}"
        if not file.endswith(SOURCE) or line not in kept:
            errors.append(f"unexpected finding {where}")
            continue
        seen.add(line)
        rule, kind, name = tags[line]
        count = int((finding.get("evidence") or {}).get("count") or 0)
        if finding.get("ruleId") != rule or count != 1:
            errors.append(f"{where}: expected {rule} once, got {finding.get('ruleId')} x{count}")
        nvtx = (finding.get("extra") or {}).get("nvtx")
        want = None if no_nvtx or kind != "nvtx" else name
        if nvtx != want:
            errors.append(f"{where}: nvtx {nvtx!r}, expected {want!r}")
    for line in sorted(kept - seen):
        errors.append(f"missing {tags[line][0]} at {SOURCE}:{line}")
    for message in errors:
        print(f"scope_expect: {scope}: {message}", file=sys.stderr)
    if not errors:
        print(f"scope_expect: {scope}: {len(seen)} finding(s) as expected")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
