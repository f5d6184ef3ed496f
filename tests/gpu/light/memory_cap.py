#!/usr/bin/env python3
"""memory_cap.py: the light mode past its memory cap on a GPU (docs/run.md, "Cost and memory").

  memory_cap.py --syncscope SYNCSCOPE --program MEMORY_CAP --workdir DIR [--probe GPU_PROBE]
      Runs MEMORY_CAP (tests/gpu/light/memory_cap.cu, 40,000 iterations of a readback waited
      for by its stream's synchronization and a device-wide synchronization, each after a
      20 us kernel) bare and under `syncscope run --mode light` twice: with a memory cap that
      keeps every call (256M) and with one that keeps only the first part (4M). Requires: the
      same stdout in all three; the whole run dropped and counted nothing; the capped run
      dropped nothing and says once how many later calls it counted by kind, and those calls
      with the kept ones are the whole run's (the traces' api records and tally counts); both
      give the SYNC301 readback and the SYNC401 synchronization at the program's lines, each
      counted once an iteration (a few fewer where a wait found its kernel done: at most 1 in
      100; 61 of 40,000 seen), the two runs' counts within 1 in 100 of each other (three
      whole runs on an H100 in four minutes counted the readback 39,974, 39,688 and 39,881
      times), their blocked times within 10%; the same findings in both (the calls after the
      loop, past the cap in the capped run and of kinds no kept call had, judged by their
      first calls: the same findings, the same counts); at most 1 in 1,000 of the counted
      calls left unjudged (kinds whose kept calls were judged in two ways: 1 to 3 calls
      seen); and the capped trace (format 1.5) analyzed again gives the same findings and
      counts.

  memory_cap.py --syncscope SYNCSCOPE --workdir DIR --cap CAP [--probe GPU_PROBE] -- CMD...
      A real workload (a PyTorch script) under the light mode twice, with a cap that keeps
      every call (4G) and with CAP: requires the same exit status and stdout, the same
      findings (rule, file, line), each count within 1% of the whole run's (a workload's waits
      vary a little from run to run) and its blocked time within a fifth or 1 ms, and the
      capped run's kept and counted calls within 1% of the whole run's calls; prints how many
      were counted and any left unjudged.
Exit status: 0 pass, 1 fail, 2 usage error, 77 skipped (no GPU visible).
"""
import argparse
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import same_answers  # noqa: E402
import stream_race  # noqa: E402  (options: --syncscope, --program, --workdir, --probe)

ITERATIONS = 40000
EXPECTED_STDOUT = f"iterations {ITERATIONS}\nsum {2 * ITERATIONS}\n"
COUNTED = re.compile(r"the memory cap was reached: ([0-9]+) later calls? \(([0-9]+) kinds?\) "
                     r"(?:were|was) counted by kind")
SAMPLED = re.compile(r"[0-9]+ of those calls \([0-9]+ kinds?\) (?:were|was) of a kind no call "
                     r"recorded before the cap had")
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "memory_cap.cu")
UNJUDGED = re.compile(r"([0-9]+) of those calls \([0-9]+ kinds?\) could not be judged")


def source_line(text):
    """The 1-based line of memory_cap.cu's loop that holds 'text'."""
    with open(SOURCE, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    loop = next(n for n, line in enumerate(lines) if "for (long i = 0; i < n; i++)" in line)
    return next(n for n, line in enumerate(lines[loop:], loop + 1) if text in line)


def rows(document):
    """{(rule, basename, line): (count, totalNs)} of a JSON result's findings."""
    found = {}
    for finding in document["findings"]:
        key = (finding["ruleId"], os.path.basename(finding.get("file") or ""), finding.get("line"))
        found[key] = (finding["evidence"]["count"], finding["evidence"].get("totalNs", 0))
    return found


def light_run(opts, cap, name, command, check):
    """(status, stdout, result document) of COMMAND under the light mode with the cap."""
    result = os.path.join(opts.workdir, f"{name}_{cap}.json")
    status, out, err = same_answers.execute(
        [opts.syncscope, "run", "--mode", "light", "--fail-on", "none", "-o", result, "--"] +
        command, opts.workdir, {"SYNCSCOPE_MAX_MEMORY": cap})
    if not check(os.path.exists(result),
                 f"{name} {cap}: no result: status {status}: {err[-2000:]}"):
        return status, out, None
    with open(result, encoding="utf-8") as handle:
        return status, out, json.load(handle)


def real(argv):
    """The second form: a real workload at two caps."""
    split = argv.index("--")
    parser = argparse.ArgumentParser()
    for name in ("--syncscope", "--workdir", "--cap", "--probe"):
        parser.add_argument(name, required=name != "--probe")
    opts = parser.parse_args(argv[:split])
    opts.syncscope, opts.workdir = os.path.abspath(opts.syncscope), os.path.abspath(opts.workdir)
    command = [os.path.abspath(word) if os.path.exists(word) else word
               for word in argv[split + 1:]]
    if not same_answers.gpu_visible(opts.probe):
        print("skipped: no GPU visible")
        return 77
    os.makedirs(opts.workdir, exist_ok=True)
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print(f"FAIL: {what}")
        return ok

    script = [word for word in command if word.endswith(".py")] or command[-1:]
    name = os.path.splitext(os.path.basename(script[0]))[0]
    s1, out1, whole = light_run(opts, "4G", name, command, check)
    s2, out2, capped = light_run(opts, opts.cap, name, command, check)
    if whole is None or capped is None:
        return 1
    check(s1 == s2 and out1 == out2,
          f"{name}: status {s1} and {s2}, stdout differs: {out1 != out2}")
    a, b = rows(whole), rows(capped)
    print(f"{name} 4G: {whole['run']['events']} events, {whole['run']['dropped']} dropped; {a}")
    print(f"{name} {opts.cap}: {capped['run']['events']} events, {capped['run']['dropped']} "
          f"dropped; {b}")
    messages = [d["message"] for d in capped.get("diagnostics", [])]
    for message in messages:
        print(f"  {message}")
    check(sorted(a) == sorted(b), f"{name}: other findings: {sorted(a)} and {sorted(b)}")
    for key in set(a) & set(b):
        check(abs(a[key][0] - b[key][0]) <= max(1, a[key][0] // 100),
              f"{name}: {key} counted {a[key][0]} (4G) and {b[key][0]} ({opts.cap})")
        # blocked time within a fifth, or 1 ms (a latent note that blocked 0 ms stays so)
        check(abs(a[key][1] - b[key][1]) <= max(max(a[key][1], b[key][1]) // 5, 1000000),
              f"{name}: {key} blocked {a[key][1]} ns (4G) and {b[key][1]} ns ({opts.cap})")
    counted = [int(m.group(1)) for m in map(COUNTED.match, messages) if m]
    calls = whole["run"]["events"]
    check(whole["run"]["dropped"] == 0 and len(counted) == 1 and capped["run"]["dropped"] == 0 and
          abs(capped["run"]["events"] + counted[0] - calls) <= calls // 100,
          f"{name}: {capped['run']['events']} kept and {counted} counted of {calls}")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("ok")
    return 0


def main(argv):
    if "--" in argv:
        return real(argv)
    opts = stream_race.options(argv, __doc__)
    if opts is None:
        return 77
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print(f"FAIL: {what}")
        return ok

    status, out, err = same_answers.execute([opts.program, str(ITERATIONS)], opts.workdir)
    check(status == 0 and out == EXPECTED_STDOUT, f"bare: status {status}, stdout {out!r}: {err}")
    results = {}
    for cap in ("256M", "4M"):
        result = os.path.join(opts.workdir, f"light_{cap}.json")
        trace = os.path.join(opts.workdir, f"light_{cap}.sstrace")
        status, out, err = same_answers.execute(
            [opts.syncscope, "run", "--mode", "light", "--fail-on", "none", "-o", result,
             "--trace", trace, "--", opts.program, str(ITERATIONS)],
            opts.workdir, {"SYNCSCOPE_MAX_MEMORY": cap})
        if not check(status == 0 and out == EXPECTED_STDOUT and os.path.exists(result),
                     f"light {cap}: status {status}, stdout {out!r}: {err[-2000:]}"):
            return 1
        with open(result, encoding="utf-8") as handle:
            document = json.load(handle)
        again = os.path.join(opts.workdir, f"again_{cap}.json")
        status, _, err = same_answers.execute(
            [opts.syncscope, "analyze", "--format", "json", "--fail-on", "none", "-o", again,
             trace], opts.workdir)
        check(status == 0, f"{cap}: analyze: exit {status}: {err[-2000:]}")
        with open(again, encoding="utf-8") as handle:
            replayed = json.load(handle)
        counts = {k: v[0] for k, v in rows(document).items()}
        check(counts == {k: v[0] for k, v in rows(replayed).items()},
              f"{cap}: the trace analyzed again gives other findings: {rows(replayed)}")
        calls = 0
        with open(trace, encoding="utf-8") as handle:
            header = handle.readline().strip()
            for line in handle:
                if line.startswith("api "):
                    calls += 1
                elif line.startswith("tally "):
                    calls += int(line.split(" ")[17])  # after the 16 api fields: count
        document["run"]["calls"] = calls
        messages = [d["message"] for d in document.get("diagnostics", [])]
        results[cap] = (rows(document), document["run"], messages, header)
        print(f"light {cap}: {document['run']['events']} events kept, "
              f"{document['run']['dropped']} dropped; header {header}; findings {rows(document)}")
        for message in messages:
            print(f"  {message}")

    readback = ("SYNC301", "memory_cap.cu", source_line("cudaMemcpyAsync(pinned"))
    device = ("SYNC401", "memory_cap.cu", source_line("cudaDeviceSynchronize();"))
    whole, capped = results["256M"], results["4M"]
    for cap, (found, _, _, _) in results.items():
        for key in (readback, device):
            count = found.get(key, (0, 0))[0]
            check(ITERATIONS - ITERATIONS // 100 <= count <= ITERATIONS,
                  f"{cap}: {key} counted {count} times, expected about {ITERATIONS}")
    for key in (readback, device):
        (c1, t1), (c2, t2) = whole[0].get(key, (0, 0)), capped[0].get(key, (0, 0))
        check(abs(c1 - c2) <= ITERATIONS // 100, f"{key}: counts {c1} (256M) and {c2} (4M)")
        check(t1 > 0 and abs(t1 - t2) <= t1 // 10, f"{key}: blocked {t1} ns (256M), {t2} ns (4M)")
    check(whole[1]["dropped"] == 0 and not any(COUNTED.match(m) for m in whole[2]),
          f"256M: {whole[1]['dropped']} dropped, {whole[2]}")
    check(sorted(whole[0]) == sorted(capped[0]),
          f"findings: {sorted(whole[0])} (256M), {sorted(capped[0])} (4M)")
    for key in set(whole[0]) & set(capped[0]):
        c1, c2 = whole[0][key][0], capped[0][key][0]
        check(abs(c1 - c2) <= ITERATIONS // 100, f"{key}: counts {c1} (256M) and {c2} (4M)")
    counted = [int(m.group(1)) for m in map(COUNTED.match, capped[2]) if m]
    check(len(counted) == 1 and capped[1]["dropped"] == 0 and
          capped[1]["events"] < whole[1]["events"] and
          capped[1]["calls"] == whole[1]["calls"] and
          capped[1]["calls"] - counted[0] <= capped[1]["events"],
          f"4M: {capped[1]['events']} events kept, {capped[1]['dropped']} dropped, counted "
          f"{counted}, {capped[1]['calls']} calls in the trace; 256M {whole[1]['calls']}")
    unjudged = [int(m.group(1)) for m in map(UNJUDGED.match, capped[2]) if m]
    check(len(counted) == 1 and sum(unjudged) <= counted[0] // 1000,
          f"4M: calls not judged: {capped[2]}")
    check(any(SAMPLED.match(m) for m in capped[2]),
          f"4M: no call judged by the first of its kind (the calls after the loop): {capped[2]}")
    check(capped[3] == "SSTRACE 1 5", f"4M: trace header {capped[3]!r}, expected 'SSTRACE 1 5'")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
