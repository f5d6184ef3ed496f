"""run.py: the driver behind bench/lint-real/run.sh (read its header for usage).

Each round runs the floor once and lint once cold (an empty cache folder) and once warm (the
same folder again), in an order that rotates from round to round; times are medians over the
rounds. Lint runs with --verbose, so the first run says, file by file, which arguments of
the compile command it kept; the floor parses each analyzed file with exactly those, after
what the analyzer adds (bench/lint/floor.py). The first round therefore starts with lint.
Standard library only.
"""
import collections
import datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lint"))
from floor import (analyzer_args, analyzer_args_after, fmt, lang_of,  # noqa: E402
                   machine_line, make_shims, measure, median, run_floor)

USAGE = "usage: run.sh SYNCSCOPE PROJECT_DIR [COMPILE_DB_DIR] [-- LINT_OPTION...] (--help)"
LINT_BASE = ["lint", "--fail-on", "none", "--keep-going", "--format", "json", "--verbose"]
# Options the benchmark sets itself, refused after '--'.
OWN_OPTIONS = ("-p", "--format", "-o", "--cache-dir", "--no-cache", "-j", "--jobs",
               "--fail-on", "--keep-going", "--verbose", "--fix", "--baseline",
               "--write-baseline", "--dump-config", "--stats")
SOURCE_EXTS = (".cu", ".c", ".cc", ".cpp", ".cxx", ".c++", ".C")
KEPT = re.compile(r"^syncscope: (.*): arguments from the compile command: (.*)$")
ADDED = re.compile(r"^syncscope: (.*): arguments lint adds before them: (.*)$")
# Of what lint adds before the command's arguments, the floor takes nvcc's version macros
# (lint defines them for nvcc's commands, as nvcc does); the rest floor.py's analyzer_args
# gives, with its own shims in place of the headers lint holds in memory.
NVCC_MACRO = re.compile(r"^-D__CUDACC_VER_(MAJOR|MINOR|BUILD)__=")
REASONS = {"excluded": "excluded", "included": "#included by other sources",
           "unlisted": "not in the compile database", "empty": "empty",
           "stopped": "after the first file with errors"}


class UsageError(Exception):
    pass


class ToolError(Exception):
    pass


def env_int(name, default):
    text = os.environ.get(name, "")
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        raise UsageError(f"{name} must be a positive integer, not '{text}'")
    return int(text)


def option_values(options, name):
    """The values of 'name' (NAME VALUE or NAME=VALUE) among the lint options."""
    values = []
    i = 0
    while i < len(options):
        a = options[i]
        if a == name and i + 1 < len(options):
            values.append(options[i + 1])
            i += 1
        elif a.startswith(name + "="):
            values.append(a[len(name) + 1:])
        i += 1
    return values


def parse_args(argv):
    """(syncscope, project, database folder or None, lint options) from the command line."""
    options = []
    if "--" in argv:
        at = argv.index("--")
        argv, options = argv[:at], argv[at + 1:]
    if len(argv) not in (2, 3):
        raise UsageError(USAGE)
    for a in options:
        name = a.split("=", 1)[0]
        if name in OWN_OPTIONS or (a.startswith("-j") and a[2:].isdigit()):
            raise UsageError(f"'{a}': the benchmark sets this lint option itself")
    syncscope = os.path.abspath(argv[0])
    if os.path.isdir(syncscope):
        syncscope = os.path.join(syncscope, "cli", "syncscope")
    if not (os.path.isfile(syncscope) and os.access(syncscope, os.X_OK)):
        raise UsageError(f"'{argv[0]}' is neither a syncscope build folder nor the binary")
    project = os.path.abspath(argv[1])
    if not os.path.isdir(project):
        raise UsageError(f"'{argv[1]}' is not a folder")
    database = os.path.abspath(argv[2]) if len(argv) == 3 else None
    if database is None and os.path.isfile(os.path.join(project, "compile_commands.json")):
        database = project
    if database is not None and not os.path.isfile(
            os.path.join(database, "compile_commands.json")):
        raise UsageError(f"'{database}/compile_commands.json' does not exist")
    return syncscope, project, database, options


def find_toolkit(options, project):
    """The toolkit root lint and the floor use, and whether the options name it: --cuda-path
    (read in 'project', where lint runs), $CUDA_PATH, nvcc's on PATH, /usr/local/cuda (as
    lint looks for it); None for 'none' or when there is none."""
    given = option_values(options, "--cuda-path")
    if given:
        return None if given[-1] == "none" else os.path.join(project, given[-1]), True
    if os.environ.get("SYNCSCOPE_NO_CUDA") == "1":
        return None, False
    candidates = [os.environ.get("CUDA_PATH", "")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        candidates.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    candidates.append("/usr/local/cuda")
    for root in candidates:
        if root and os.path.isfile(os.path.join(root, "include", "cuda_runtime.h")):
            return root, False
    return None, False


def load_database(folder):
    """{real path of a source: its first entry's arguments}, and the entry count."""
    path = os.path.join(folder, "compile_commands.json")
    try:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError(f"cannot read {path}: {e}")
    if not isinstance(entries, list):
        raise ToolError(f"{path} is not a JSON array")
    files = {}
    for e in entries:
        if not isinstance(e, dict) or "file" not in e or "directory" not in e:
            continue
        if "arguments" in e:
            args = list(e["arguments"])
        else:
            try:
                args = shlex.split(e.get("command", ""))
            except ValueError:
                args = []
        real = os.path.realpath(os.path.join(e["directory"], e["file"]))
        files.setdefault(real, args)
    return files, len(entries)


def walk_sources(folder):
    """The sources a folder walk finds (not the headers), as real paths."""
    found = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if os.path.splitext(name)[1] in SOURCE_EXTS:
                found.append(os.path.realpath(os.path.join(root, name)))
    return found


def read_report(path):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        report["summary"]["files"]["total"]
        return report
    except (OSError, ValueError, KeyError, TypeError):
        return None


def read_verbose(err, project):
    """What lint's --verbose said of each file (keyed by its real path): the arguments it
    kept from the compile command (None where they could not be split), and nvcc's version
    macros among those it adds before them."""
    kept, macros = {}, {}
    for line in err.splitlines():
        said = KEPT.match(line) or ADDED.match(line)
        if not said:
            continue
        try:
            args = [] if said.group(2) == "(none)" else shlex.split(said.group(2))
        except ValueError:
            args = None
        real = os.path.realpath(os.path.join(project, said.group(1)))
        if said.re is KEPT:
            kept[real] = args
        else:
            macros[real] = [a for a in args or [] if NVCC_MACRO.match(a)]
    return kept, macros


def run_lint(syncscope, project, scratch, tag, argv_tail, cache):
    out = os.path.join(scratch, f"{tag}.json")
    argv = [syncscope] + LINT_BASE + ["-o", out, "--cache-dir", cache] + argv_tail
    run = measure(argv, project)
    rc, err = run["rc"], run["stderr"]
    report = read_report(out)
    if rc != 0 or report is None:
        tail = err.strip().splitlines()[-5:]
        raise ToolError(f"{' '.join(shlex.quote(a) for a in argv)}: exit status {rc}"
                        + ("" if report else ", no report") + (":\n  " + "\n  ".join(tail)
                                                             if tail else ""))
    kept, macros = read_verbose(err, project)
    return {"seconds": run["seconds"], "cpu": run["cpu"], "rss": run["rss"], "report": report,
            "kept": kept, "macros": macros, "argv": argv}


def outcome(report):
    """What a cold and a warm run must agree on."""
    files = report["summary"]["files"]
    return (report["summary"]["findings"], report["summary"]["diagnostics"],
            files["analyzed"], files["withErrors"],
            sorted((f["ruleId"], f["file"], f["line"], f["column"]) for f in report["findings"]))


def floor_commands(clang, project, analyzed, kept, macros, database_args, extra, cuda, shims):
    commands = []
    for real in analyzed:
        own = kept.get(real, [])
        lang = lang_of(real, database_args.get(real, ()), extra)
        argv = [clang, "-fsyntax-only"] + analyzer_args(lang, cuda, shims)
        argv += macros.get(real, []) + (own or [])
        argv += list(extra) + analyzer_args_after(lang, cuda, shims)
        commands.append((project, argv + [real], real))
    return commands


def shown(project, real):
    rel = os.path.relpath(real, project)
    return real if rel.startswith("..") else rel


def main(argv):
    syncscope, project, database, options = parse_args(argv)
    rounds = env_int("BENCH_ROUNDS", 2)
    jobs = env_int("BENCH_JOBS", 1)
    show = env_int("BENCH_SHOW", 5)
    measures = os.environ.get("BENCH_MEASURE", "floor lint").split()
    if sorted(measures) not in (["floor", "lint"], ["lint"]):
        raise UsageError("BENCH_MEASURE is 'floor lint' or 'lint' (the floor takes its "
                         "arguments from lint)")
    clang = os.environ.get("CLANG", "clang-16")
    cuda, cuda_given = find_toolkit(options, project)
    floor_off = None
    if "floor" not in measures:
        floor_off = "not measured (BENCH_MEASURE)"
    elif cuda is None:
        floor_off = ("not measured: no CUDA toolkit, so lint parses with the bundled "
                     "declarations it holds in memory")
    elif shutil.which(clang) is None:
        raise UsageError(f"{clang} not found (set CLANG, or BENCH_MEASURE=lint to skip the "
                         "floor)")
    extra = option_values(options, "--extra-arg")

    database_args, entries = ({}, None) if database is None else load_database(database)
    tail = ["-j", str(jobs)]
    if cuda is not None and not cuda_given:
        tail += ["--cuda-path", cuda]
    tail += options
    tail += ["-p", database] if database is not None else ["."]

    scratch = tempfile.mkdtemp(prefix="syncscope-lintreal-")
    shims = make_shims(scratch)
    started = datetime.datetime.now(datetime.timezone.utc)
    runs = {"floor": [], "cold": [], "warm": []}
    problems = []
    commands = None
    first = None
    try:
        plan = ["lint", "floor"] if floor_off is None else ["lint"]
        for r in range(rounds):
            order = plan[r % len(plan):] + plan[:r % len(plan)]
            for m in order:
                if m == "lint":
                    cache = os.path.join(scratch, f"cache-{r}")
                    cold = run_lint(syncscope, project, scratch, f"cold-{r}", tail, cache)
                    warm = run_lint(syncscope, project, scratch, f"warm-{r}", tail, cache)
                    shutil.rmtree(cache, ignore_errors=True)
                    runs["cold"].append(cold)
                    runs["warm"].append(warm)
                    if first is None:
                        first = cold
                    for res in (cold, warm):
                        if outcome(res["report"]) != outcome(first["report"]):
                            problems.append(f"round {r + 1}: a lint run's findings or file "
                                            "counts differ from the first cold run's")
                    print(f"round {r + 1}/{rounds} lint cold {cold['seconds']:8.2f} s "
                          f"(CPU {cold['cpu']:.2f} s), warm {warm['seconds']:.2f} s",
                          file=sys.stderr, flush=True)
                else:
                    if commands is None:
                        commands = floor_files_and_commands(first, project, database,
                                                            database_args, extra, clang,
                                                            cuda, shims)
                    res = run_floor(commands)
                    runs["floor"].append(res)
                    print(f"round {r + 1}/{rounds} floor     {res['seconds']:8.2f} s "
                          f"(CPU {res['cpu']:.2f} s)", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    report = first["report"]
    text = render(dict(
        syncscope=syncscope, project=project, database=database, entries=entries,
        database_args=database_args, options=options, rounds=rounds, jobs=jobs, show=show,
        clang=clang, cuda=cuda, floor_off=floor_off, started=started, runs=runs,
        report=report, first=first, problems=problems, argv=argv))
    print(text, end="")
    keep = os.environ.get("BENCH_REPORT")
    if keep:
        with open(keep + ".tmp", "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
        os.replace(keep + ".tmp", keep)
    summary = os.environ.get("BENCH_SUMMARY")
    if summary:
        write_summary(summary, project, report, runs)
    out = os.environ.get("BENCH_OUT")
    if out:
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    return 1 if problems or report["summary"]["files"]["withErrors"] else 0


def write_summary(path, project, report, runs):
    """The counts and median times of this run as JSON: the project folder, the files lint
    analyzed and those with errors, the files with errors under the floor (null when it was
    not measured), and {floor, cold, warm: {wall, cpu}} in seconds (null when not run)."""
    files = report["summary"]["files"]
    floor = runs["floor"][-1]["failed_files"] if runs["floor"] else None
    data = {"project": project, "analyzed": files["analyzed"],
            "withErrors": sorted(f["file"] for f in files["filesWithErrors"]),
            "floorWithErrors": None if floor is None else sorted(
                shown(project, real) for real in floor),
            "time": {k: {"wall": median([x["seconds"] for x in runs[k]]),
                         "cpu": median([x["cpu"] for x in runs[k]])} for k in runs}}
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    os.replace(path + ".tmp", path)


def floor_files_and_commands(first, project, database, database_args, extra, clang, cuda,
                             shims):
    """The floor's commands for the files the first lint run analyzed."""
    files = first["report"]["summary"]["files"]
    left_out = {os.path.realpath(os.path.join(project, f["file"]))
                for f in files["filesNotAnalyzed"]}
    if database is not None:
        analyzed = [f for f in first["kept"] if f not in left_out]
    else:
        analyzed = [f for f in walk_sources(project) if f not in left_out]
    return floor_commands(clang, project, analyzed, first["kept"], first["macros"],
                          database_args, extra, cuda, shims)


def render(v):
    report, runs, project = v["report"], v["runs"], v["project"]
    files = report["summary"]["files"]
    command = "bench/lint-real/run.sh " + " ".join(shlex.quote(a) for a in v["argv"])
    settings = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in sorted(os.environ)
                        if k.startswith("BENCH_")
                        and k not in ("BENCH_OUT", "BENCH_REPORT", "BENCH_SUMMARY"))
    if settings:
        command = settings + " " + command
    lint_argv = v["first"]["argv"]
    shown_argv = [a if not a.startswith(tempfile.gettempdir() + "/syncscope-lintreal-")
                  else ("OUT.json" if a.endswith(".json") else "CACHE") for a in lint_argv]
    shown_argv[0] = "syncscope"
    lines = [f"syncscope lint on a real project, {v['started']:%Y-%m-%d %H:%M} UTC, "
             f"{machine_line()}, {v['clang']}, "
             f"{'CUDA at ' + v['cuda'] if v['cuda'] else 'no CUDA toolkit'}",
             f"Command: {command}",
             f"Project: {project}",
             f"lint: (in the project) {' '.join(shlex.quote(a) for a in shown_argv)}", ""]

    lines += ["Files:"]
    if v["database"] is not None:
        lines.append(f"  compile database: {v['entries']} entries, "
                     f"{len(v['database_args'])} source files")
    else:
        lines.append("  no compile database: lint walked the project folder")
    reasons = collections.Counter(f["reason"] for f in files["filesNotAnalyzed"])
    left = ", ".join(f"{n} {REASONS.get(k, k)}" for k, n in sorted(reasons.items()))
    lines += [f"  found by lint: {files['total']}",
              f"  analyzed: {files['analyzed']}",
              f"  with parse errors: {files['withErrors']}",
              f"  not analyzed: {files['notAnalyzed']}" + (f" ({left})" if left else "")]
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    if errors:
        lines.append(f"  first parse errors ({min(v['show'], len(errors))} of {len(errors)} "
                     "reported once each):")
        for d in errors[:v["show"]]:
            lines.append(f"    {d['file']}:{d['line']}:{d['column']}: {d['message']}")
    if files["filesWithErrors"]:
        names = [f["file"] for f in files["filesWithErrors"]]
        lines.append(f"  files with errors: {', '.join(names[:v['show']])}"
                     + (f" and {len(names) - v['show']} more" if len(names) > v["show"] else ""))
    if runs["floor"]:
        floor_failed = runs["floor"][-1]["failed_files"]
        lint_failed = {os.path.realpath(os.path.join(project, f["file"]))
                       for f in files["filesWithErrors"]}
        only_lint = sorted(lint_failed - set(floor_failed))
        only_floor = sorted(set(floor_failed) - lint_failed)
        n = len(floor_failed)
        lines.append(f"  floor ({v['clang']} alone): {n} file{'' if n == 1 else 's'} with "
                     f"errors; errors under lint only: {len(only_lint)}; under {v['clang']} only: "
                     f"{len(only_floor)}")
        for real in only_lint[:v["show"]]:
            lines.append(f"    lint only: {shown(project, real)}")
        for real in only_floor[:v["show"]]:
            lines.append(f"    {v['clang']} only: {shown(project, real)}: {floor_failed[real]}")
    lines.append("")

    summary = report["summary"]
    lines.append(f"Findings: {summary['findings']} ({summary['errors']} errors, "
                 f"{summary['warnings']} warnings, {summary['notes']} notes)")
    by_rule = collections.defaultdict(collections.Counter)
    names = {}
    for f in report["findings"]:
        by_rule[f["ruleId"]][f["severity"]] += 1
        names[f["ruleId"]] = f["ruleName"]
    if by_rule:
        lines += ["", "| rule | error | warning | note | total |", "|---|---|---|---|---|"]
        for rule in sorted(by_rule):
            c = by_rule[rule]
            lines.append(f"| {rule} {names[rule]} | {c['error']} | {c['warning']} | "
                         f"{c['note']} | {sum(c.values())} |")
    lines.append("")

    def med(key, field):
        return median([x[field] for x in runs[key]])

    def ratio(a, b, digits, suffix):
        return fmt(a / b if a is not None and b else None, digits, suffix)

    wall = {k: med(k, "seconds") for k in runs}
    cpu = {k: med(k, "cpu") for k in runs}
    mib = {k: (None if med(k, "rss") is None else med(k, "rss") / 1024) for k in runs}
    lines += [f"Time: medians of {v['rounds']} interleaved rounds, lint -j{v['jobs']}", "",
              "| measure | wall s | CPU s | wall ratio | CPU ratio | peak RSS |",
              "|---|---|---|---|---|---|",
              f"| floor: {v['clang']} -fsyntax-only, one file after another | "
              f"{fmt(wall['floor'], 1)} | {fmt(cpu['floor'], 1)} | | | "
              f"{fmt(mib['floor'], 0, ' MiB')} |",
              f"| lint cold (empty cache) | {fmt(wall['cold'], 1)} | {fmt(cpu['cold'], 1)} | "
              f"{ratio(wall['cold'], wall['floor'], 2, 'x floor')} | "
              f"{ratio(cpu['cold'], cpu['floor'], 2, 'x floor')} | "
              f"{fmt(mib['cold'], 0, ' MiB')} |",
              f"| lint warm (same cache) | {fmt(wall['warm'], 2)} | {fmt(cpu['warm'], 2)} | "
              f"{ratio(wall['warm'], wall['cold'], 3, 'x cold')} | "
              f"{ratio(cpu['warm'], cpu['cold'], 3, 'x cold')} | "
              f"{fmt(mib['warm'], 0, ' MiB')} |"]
    if v["floor_off"]:
        lines.append(f"floor: {v['floor_off']}")
    if v["problems"]:
        lines += ["", "PROBLEMS:"] + ["  " + p for p in v["problems"]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        print(f"bench/lint-real: {e}", file=sys.stderr)
        sys.exit(2)
    except ToolError as e:
        print(f"bench/lint-real: {e}", file=sys.stderr)
        sys.exit(2)
