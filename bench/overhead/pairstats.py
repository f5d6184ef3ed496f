"""pairstats.py: the statistics of paired measurements shared by bench/overhead/mlp_pairs.py,
bench/overhead/mlp_lockstep.py and bench/exit/run.py: quantiles, and a percentile bootstrap
interval of the median of paired ratios (a fixed seed, so a run's summary is reproducible);
and the reading of a forked child's pipe and of a CPU list, shared with bench/exit/forked.py."""
import os
import random
import statistics

BOOTSTRAP = 2000
SEED = 20261202


def read_to_end(fd):
    """Reads the file descriptor 'fd' (a child's pipe) to its end, closes it and returns what
    it held as text: UTF-8 with undecodable bytes replaced, white space stripped at both ends."""
    chunks = []
    while True:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode("utf-8", "replace").strip()


def parse_cpus(text):
    """The CPUs of a list written as taskset takes it ('2-3', '0,4-7'), as a set."""
    cpus = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


def quantile(sorted_values, q):
    """The q-quantile of 'sorted_values', linear between the two nearest."""
    position = q * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def bootstrap_medians(values, resamples=BOOTSTRAP, seed=SEED):
    """The medians of 'resamples' resamples of 'values' (with replacement, a fixed seed), in
    the order drawn: to combine with another quantity's resamples drawn with another seed."""
    rng = random.Random(seed)
    return [statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples)]


def bootstrap_median(values, resamples=BOOTSTRAP):
    """A 95% interval of the median of 'values' (percentile bootstrap, a fixed seed)."""
    medians = sorted(bootstrap_medians(values, resamples))
    return quantile(medians, 0.025), quantile(medians, 0.975)


def ratio_summary(ratios):
    """n, median, bootstrap 95% interval of the median, quartiles and extremes of 'ratios'
    (a dict), the words a 'bench:' line prints."""
    ordered = sorted(ratios)
    low, high = bootstrap_median(ratios)
    return {"n": len(ratios), "median": statistics.median(ratios), "ci95": (low, high),
            "q1": quantile(ordered, 0.25), "q3": quantile(ordered, 0.75),
            "min": ordered[0], "max": ordered[-1]}


def resolves(summary, target):
    """What the interval says about 'ratio <= target': 'shown' when its upper end is at or
    under the target, 'refuted' when its lower end is above it, else 'not resolved'."""
    low, high = summary["ci95"]
    if high <= target:
        return "shown"
    if low > target:
        return "refuted"
    return "not resolved"
