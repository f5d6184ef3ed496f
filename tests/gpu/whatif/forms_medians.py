#!/usr/bin/env python3
"""forms_medians.py: the medians of a three-form what-if run (cover_run.sh, flag_run.sh).

Usage: forms_medians.py LABEL RUNS_TXT

RUNS_TXT has one line a run: CONFIG FORM US_PER_ITERATION CHECKSUM (FORM 1, 2 or 3; "nan" for a
run that printed no time). Prints one line a config: "LABEL CONFIG form1_us form2_us
form2_saving_pct form3_us form3_saving_pct same|DIFFERENT" (medians over the runs; the last word:
whether every run's checksum agrees), or "LABEL CONFIG incomplete"."""
import statistics
import sys


def main(label, path):
    runs, sums = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if len(w) < 4 or w[2] == "nan":
                continue
            runs.setdefault((w[0], w[1]), []).append(float(w[2]))
            sums.setdefault((w[0], w[1]), set()).add(w[3])
    for config in dict.fromkeys(c for c, _ in runs):
        med = {f: statistics.median(runs[(config, f)]) for f in "123" if (config, f) in runs}
        if len(med) < 3:
            print(label, config, "incomplete")
            continue
        same = len(set().union(*(sums[(config, f)] for f in "123"))) == 1
        saving = {f: 100.0 * (med["1"] - med[f]) / med["1"] for f in "23"}
        print("%s %s %.3f %.3f %.1f %.3f %.1f %s" % (label, config, med["1"], med["2"], saving["2"],
              med["3"], saving["3"], "same" if same else "DIFFERENT"))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
