#!/usr/bin/env python3
"""check_function_length.py SOURCE_DIR: no function of the shipped C code (every .c and .h
file outside tests/, fuzz/, bench/ and samples/) is longer than 60 lines (style.md,
docs/architecture.md "Function length"). A function's length is its lines from the first line
of its definition to its closing brace, blank lines and lines holding only a comment left
out; the code is clang-formatted (the style test), so a definition starts at the first column
and its body ends at the first line that starts with '}'."""
import os
import re
import subprocess
import sys

LIMIT = 60
SKIPPED = ("tests/", "fuzz/", "bench/", "samples/")
DEFINITION = re.compile(r"^[A-Za-z_][^;=]*?\b([A-Za-z_][A-Za-z0-9_]*)\(")


def code_lines(lines):
    """The lines of 'lines' that hold code: not blank, not only a comment."""
    count, in_comment = 0, False
    for line in lines:
        text, i, code = line.strip(), 0, False
        while i < len(text):
            if in_comment:
                end = text.find("*/", i)
                if end < 0:
                    break
                in_comment, i = False, end + 2
            elif text.startswith("/*", i):
                in_comment, i = True, i + 2
            elif text.startswith("//", i):
                break
            else:
                code = code or not text[i].isspace()
                i += 1
        count += code
    return count


def functions(path):
    """(name, first line, length) of each function defined in 'path'."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = DEFINITION.match(lines[i])
        if m is None or lines[i].startswith(("typedef", "struct", "enum", "#")):
            i += 1
            continue
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
            j += 1
        if j == len(lines) or not lines[j].rstrip().endswith("{"):
            i += 1
            continue
        k = j + 1
        while k < len(lines) and not lines[k].startswith("}"):
            k += 1
        yield m.group(1), i + 1, code_lines(lines[i : k + 1])
        i = k + 1


def shipped_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "*.c", "*.h"], check=True,
                             capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
    if not out:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(("build", "."))]
            out += [os.path.relpath(os.path.join(folder, f), root) for f in files
                    if f.endswith((".c", ".h"))]
    return sorted(p for p in out if not p.startswith(SKIPPED))


def main():
    root = sys.argv[1]
    files = shipped_files(root)
    failures, count = [], 0
    for path in files:
        for name, line, length in functions(os.path.join(root, path)):
            count += 1
            if length > LIMIT:
                failures.append(f"{path}:{line}: {name} is {length} lines (at most {LIMIT})")
    for failure in failures:
        print("check_function_length: " + failure)
    if failures or count == 0:
        return 1
    print(f"check_function_length: {count} functions in {len(files)} files, none over {LIMIT} "
          "lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
