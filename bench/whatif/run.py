"""run.py: the what-if predictions against the rewritten programs (tests/gpu/whatif).

  run.py SYNCSCOPE [TRACES_DIR [MEASURED]]

For each pair of tests/gpu/whatif, replays the trace of the written program
(TRACES_DIR/whatif_PAIR.sstrace, default tests/data, or TRACES_DIR/PAIR_written.sstrace as
device_run.sh and samples_run.sh write them; for soa_pair the cuda-sample's own trace,
whatif_soa_sample.sstrace or soa.sstrace) with `SYNCSCOPE analyze`, takes the
predicted saving of the pair's rule per iteration, and prints it beside the saving measured on
the GPU (MEASURED, default bench/whatif/measured.txt: the results.txt that
tests/gpu/whatif/device_run.sh wrote, "PAIR written_us rewritten_us saving_us rounds", and
"traced PAIR us" lines, the written program's own time per iteration under syncscope), with
their ratio. It also prints the rewritten program's time per iteration as predicted (SYNC502
and SYNC503 predict it; for SYNC201 and SYNC301 it is the traced written time less the
predicted saving) beside the measured one: the saving's ratio includes syncscope's own cost in
the traced run, the rewritten time's does not. A pair whose trace has no finding of its rule is
"no claim"; one whose message gives a range (SYNC201's "down to none") shows "0 to X", and
SYNC502's saving without syncscope's own cost per launch shows "X to Y" (saving_low_ns to
saving_ns), "in range" when the measured saving lies between the two. Further traced runs of
one form in TRACES_DIR (NAME_2.sstrace, NAME_3.sstrace, ... beside NAME.sstrace, as
samples_run.sh SAMPLES_TRACED writes them) get a row each, "PAIR (traced run N)".
A further traced run N is compared with its own measurement, "PAIR_N written rewritten saving
rounds", where MEASURED has one (samples_run.sh SAMPLES_SEQUENCES: each sequence's trace and
rounds), else with PAIR's; "PAIR_all ..." (every round of every sequence pooled) gets a line
below the table with each traced run's ratio to it.
Below the table, for a pair whose MEASURED has them (samples_run.sh): each round's own saving
("spread PAIR median lowest highest": a round's written form less its rewritten form, run one
after the other), and, where the pair prints the host's own work per iteration ("host PAIR
written_us rewritten_us", the medians), the measured saving less the difference of that work
between the forms, beside each traced run's prediction: SYNC503's model takes that work to
stay as it is, so the difference is the two processes' own, no part of what the fix changes.
Exit status: 0, 1 when a trace or the measurements cannot be read, 2 on a usage error.
"""
import json
import os
import subprocess
import sys

# pair: (rule, the program's source file, what one iteration is in the finding's figures)
PAIRS = {
    "c_sync503": ("SYNC503", "sync503_written.cu", "chunks"),
    "cupy_sync503": ("SYNC503", "cupy_sync503.py", "chunks"),
    "jax_sync503": ("SYNC503", "jax_sync503.py", "chunks"),
    "c_sync502": ("SYNC502", "sync502_written.cu", "steps"),
    "torch_sync502": ("SYNC502", "torch_sync502.py", "steps"),
    "c_sync201": ("SYNC201", "sync201_written.cu", "count"),
    "torch_sync201": ("SYNC201", "torch_sync201.py", "count"),
    "c_sync301": ("SYNC301", "sync301_written.cu", "count"),
    "torch_sync301": ("SYNC301", "torch_sync301.py", "count"),
    # cuda-samples' streamOrderedAllocation (tests/gpu/whatif/samples_run.sh): the sample's
    # trace predicts, stream_ordered_pair.cu's two forms measure. Built as its CMake file
    # builds it, without host debug information: its findings have no source line (None).
    "soa_pair": ("SYNC503", None, "chunks"),
    # UnifiedMemoryPerf's copy modes, predicted from the pair's own written form.
    "ump_pair": ("SYNC503", "unified_memory_pair.cu", "chunks"),
    # The same pair measured with its forms alternating in one process (samples_run.sh part
    # ump_inproc), predicted from a traced run of the written form, as ump_pair.
    "ump_inproc": ("SYNC503", "unified_memory_pair.cu", "chunks"),
}
# Traces named otherwise than whatif_PAIR.sstrace or PAIR_written.sstrace.
# (tests/data, a samples_run.sh output folder's traces/).
TRACE_NAMES = {"soa_pair": ("whatif_soa_sample.sstrace", "soa.sstrace"),
               "ump_inproc": ("whatif_ump_inproc.sstrace", "ump_inproc_written.sstrace")}
# Pairs whose chains span work outside the timed loop (UnifiedMemoryPerf's pair: the buffers
# freed, allocated and zeroed between its copy modes, the host's own work in the chunk before):
# the finding's predicted time per chunk is no rewritten iteration's; the predicted rewritten
# time is the traced written time less the predicted saving, as for SYNC201 and SYNC301.
CHAIN_SPANS_UNTIMED = {"ump_pair", "ump_inproc"}
# The kernels of one step of the SYNC502 pairs (tests/gpu/whatif/README.md): the finding's
# kernels over these are the steps its run covers (the warm-up's may be the startup phase's).
KERNELS_PER_STEP = {"c_sync502": 48, "torch_sync502": 16}


def findings(syncscope, trace):
    run = subprocess.run([syncscope, "analyze", "--format", "json", trace],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout:
        sys.exit(f"run.py: syncscope analyze {trace} exited with {run.returncode}: "
                 f"{run.stderr.strip()}")
    return json.loads(run.stdout).get("findings", [])


def prediction(pair, found):
    """(predicted saving per iteration, predicted rewritten time per iteration or None, the
    low end of the saving's range: 0 for a range down to none, None for no range) in us, or
    None when the trace holds no finding of the pair's rule at the program's lines."""
    rule, source, unit = PAIRS[pair]
    mine = [f for f in found if f.get("ruleId") == rule and not f.get("latent")
            and not f.get("startup")
            and (source is None and not f.get("file")
                 or os.path.basename(f.get("file") or "") == source
                 or os.path.basename((f.get("via") or {}).get("file") or "") == source)]
    if not mine:
        return None
    saving = sum(int(f["extra"]["saving_ns"]) for f in mine if "saving_ns" in f["extra"])
    low = 0.0 if any("down to none" in f.get("message", "") for f in mine) else None
    if all("saving_low_ns" in f["extra"] for f in mine):
        low = float(sum(int(f["extra"]["saving_low_ns"]) for f in mine))
    if unit == "chunks":
        n = sum(int(f["extra"]["chunks"]) for f in mine)
        predicted = sum(int(f["extra"]["predicted_ns"]) for f in mine) / n / 1e3
    elif unit == "steps":
        n = sum(int(f["extra"]["kernels"]) for f in mine) / KERNELS_PER_STEP[pair]
        predicted = sum(int(f["extra"]["predicted_ns"]) for f in mine) / n / 1e3
    else:
        n = sum(int(f["evidence"]["count"]) for f in mine)
        predicted = None
    return saving / n / 1e3, predicted, None if low is None else low / n / 1e3


def main(argv):
    if len(argv) < 2 or len(argv) > 4:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    syncscope = argv[1]
    traces = argv[2] if len(argv) > 2 else os.path.join(root, "tests", "data")
    measured_path = argv[3] if len(argv) > 3 else os.path.join(here, "measured.txt")
    measured, traced, host, spread = {}, {}, {}, {}
    try:
        with open(measured_path, encoding="utf-8") as handle:
            for line in handle:
                fields = line.split()
                if line.startswith("#") or not fields:
                    continue
                if fields[0] == "traced" and len(fields) == 3:
                    traced[fields[1]] = float(fields[2])
                elif fields[0] == "host" and len(fields) == 4:
                    host[fields[1]] = [float(v) for v in fields[2:4]]
                elif fields[0] == "spread" and len(fields) == 5:
                    spread[fields[1]] = [float(v) for v in fields[2:5]]
                elif fields[0] not in ("form", "host", "spread") and len(fields) == 5:
                    measured[fields[0]] = [float(v) for v in fields[1:5]]
    except (OSError, ValueError) as e:
        print(f"run.py: cannot read the measurements {measured_path}: {e}", file=sys.stderr)
        return 1
    print("| pair | rule | predicted saving | measured saving | ratio | predicted rewritten | "
          "measured rewritten | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    notes = []
    for pair, (rule, _source, _unit) in PAIRS.items():
        names = TRACE_NAMES.get(pair, (f"whatif_{pair}.sstrace", f"{pair}_written.sstrace"))
        trace = next((os.path.join(traces, n) for n in names
                      if os.path.exists(os.path.join(traces, n))),
                     os.path.join(traces, names[0]))
        if pair not in measured:
            print(f"| {pair} | {rule} | (not measured) | | | | | |")
            continue
        if not os.path.exists(trace):
            print(f"| {pair} | {rule} | (trace not kept) | {measured[pair][2]:.1f} us | | | "
                  f"{measured[pair][1]:.1f} us | |")
            continue
        # Further traced runs of the same form (samples_run.sh SAMPLES_TRACED): NAME_2.sstrace,
        # NAME_3.sstrace, ... beside the first, each a row of its own.
        # A further run measured apart (samples_run.sh SAMPLES_SEQUENCES: each sequence's trace
        # and rounds) is compared with its own measurement, "PAIR_N ...", where there is one.
        runs = [(pair, trace, pair)]
        stem = trace[:-len(".sstrace")]
        n = 2
        while os.path.exists(f"{stem}_{n}.sstrace"):
            own = f"{pair}_{n}" if f"{pair}_{n}" in measured else pair
            runs.append((f"{pair} (traced run {n})", f"{stem}_{n}.sstrace", own))
            n += 1
        predicted = [row(label, pair, rule, measured[own], traced, findings(syncscope, path),
                         own)
                     for label, path, own in runs]
        for own in dict.fromkeys(o for _l, _p, o in runs):
            notes.extend(pair_notes(own, measured[own][2], spread.get(own), host.get(own),
                                    [p for (_l, _p, o), p in zip(runs, predicted) if o == own]))
        if f"{pair}_all" in measured:
            everything = measured[f"{pair}_all"]
            ratios = ", ".join("no claim" if p is None else f"{p / everything[2]:.2f}"
                               for p in predicted)
            notes.append(f"{pair}: every round of every sequence pooled ({everything[3]:.0f} "
                         f"rounds), each round's own saving's median {everything[2]:.1f} us: "
                         f"the traced runs' predictions are {ratios} of it")
    for note in notes:
        print(note)
    return 0


def pair_notes(pair, saving, each, host, predicted):
    """The lines below the table about 'pair' measured with a saving of 'saving' us: each
    round's own saving (median, lowest, highest), and the saving less the difference of the
    host's own work between the forms (written, rewritten) against each traced run's predicted
    saving ('predicted': None where a run made no number claim)."""
    lines = []
    if each is not None:
        lines.append(f"{pair}: each round's own saving (its written form less its rewritten "
                     f"form): median {each[0]:.1f} us, {each[1]:.1f} to {each[2]:.1f} us")
    if host is not None:
        same = saving - (host[0] - host[1])
        ratios = ", ".join("no claim" if p is None else
                           f"{p / same:.2f}" if same > 0 else "n/a" for p in predicted)
        lines.append(f"{pair}: the host's own work per iteration, written {host[0]:.1f} us, "
                     f"rewritten {host[1]:.1f} us (medians): the measured saving less their "
                     f"difference, {same:.1f} us; the prediction's ratio to it {ratios}")
    return lines


def row(label, pair, rule, measurement, traced, found, own=None):
    """Prints the table's row of one traced run of 'pair' against its measurement ('own': the
    measurement's name, 'pair' unless the run has one of its own). Returns the predicted
    saving per iteration in us (the high end of a range), None for no claim."""
    _written, rewritten, saving = measurement[:3]
    got = prediction(pair, found)
    if got is None:
        print(f"| {label} | {rule} | no claim | {saving:.1f} us | | | {rewritten:.1f} us | |")
        return None
    p_saving, p_rewritten, low = got
    if pair in CHAIN_SPANS_UNTIMED:
        p_rewritten = None
    ranged = low is not None
    own = own or pair
    if p_rewritten is None and traced and own in traced:
        p_rewritten = traced[own] - p_saving
    claim = f"{low:.1f} to {p_saving:.1f} us" if ranged else f"{p_saving:.1f} us"
    if ranged and low > 0:
        ratio = ("in range" if low <= saving <= p_saving else
                 f"outside ({saving / p_saving:.2f} of the high end)" if saving > 0 else
                 "outside")
    elif ranged:
        ratio = "in range" if -0.2 * p_saving <= saving <= 1.2 * p_saving else "outside"
    else:
        ratio = f"{p_saving / saving:.2f}" if saving > 0 else "n/a"
    r_text = "" if (ranged and low == 0) or p_rewritten is None else f"{p_rewritten:.1f} us"
    r_ratio = "" if not r_text else f"{p_rewritten / rewritten:.2f}"
    print(f"| {label} | {rule} | {claim} | {saving:.1f} us | {ratio} | {r_text} | "
          f"{rewritten:.1f} us | {r_ratio} |")
    return p_saving


if __name__ == "__main__":
    sys.exit(main(sys.argv))
