#!/usr/bin/env python3
"""light_trace.py: what the light mode would have recorded of a run recorded in the full mode.

  light_trace.py ROOT FULL.sstrace LIGHT.sstrace
      Writes LIGHT.sstrace: FULL.sstrace with the metadata "mode" light, without the calls the
      light mode does not subscribe to (rules/cuda_api.def rows that ss_api_light leaves out:
      launches, event records, stream waits, host functions, graph launches, prefetches,
      attaches) and asynchronous memsets of device memory, without GPU, synchronization and pointer
      records, and with each copy's and memset's memory kinds moved from its GPU record into
      its call's flags word, as the light mode records them (evlog.h, SS_API_MEM_WORD), and
      what the light mode's probe of pending work would have said (SS_API_PROBED,
      SS_API_WAITED, SS_API_PENDING; metadata probe_pending 1): work of the streams the call
      may wait for (its own stream, or every stream of its device) pending at its entry, and
      one of those streams complete at its exit, not asked for a call held less than 5 us
      (metadata probe_exit_min_ns), nor for the synchronization of a stream right after a
      readback of its thread that found that stream idle. ROOT is the source tree (for
      cuda_api.def).
  light_trace.py compare SYNCSCOPE FULL.json LIGHT.json
      Compares the findings of the light rules (those `SYNCSCOPE rules --format json` marks
      "lightMode") of two `syncscope analyze --format json` results as (rule, file, line,
      count, latent); prints the differences.
  light_trace.py check ROOT SYNCSCOPE WORKDIR
      For every trace tests/data/NAME.sstrace: its light view, both analyzed, the light rules'
      findings equal, except the differences KNOWN pins for a trace (exactly those: rule, file
      name, line, count, latent, and on which side).
Exit status: 0 done (or equal), 1 different, 2 usage or input error.
"""
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu"))
import gpu_expect  # noqa: E402  (tests/gpu/gpu_expect.py: light_rules)

# ss_api_light (rules/catalog.c): any sync class but NEVER, and these classes.
LIGHT_CLASSES = {"COPY", "MEMSET", "ALLOC", "FREE", "HOST_ALLOC", "MANAGED_ALLOC",
                 "HOST_REGISTER", "HOST_UNREGISTER", "HOST_FREE", "STREAM_CREATE", "QUERY",
                 "STREAM_SYNC", "DEVICE_SYNC", "EVENT_SYNC", "GRAPH_INSTANTIATE",
                 "GRAPH_UPLOAD"}
MEM_KNOWN = 0x80000000
# ss_mem_kind (evlog.h): device and array memory, whose memsets the light mode leaves out.
MEM_DEVICE_SIDE = (3, 4)
EVENT_RECORDS = ("stream", "api", "kernel", "memcpy", "memset", "sync", "scope", "args")
PROBED, WAITED, PENDING = 0x40000000, 0x20000000, 0x10000000
SLACK_NS = 5000
# The light mode's min_blocked_ns (the default): a call held less is not asked at its exit.
EXIT_MIN_NS = 5000
ROW = re.compile(r"^SS_API\(\s*(\w+),\s*(RT|DRV),\s*(\w+),\s*(\w+),\s*(-?[0-9]+),")
# Field positions after the keyword (docs/trace-format.md, "Records").
API_NAME, API_CORRELATION, API_FLAGS = 4, 3, 10
OP_CORRELATION, OP_SRC, OP_DST = 2, 9, 10


def light_apis(root):
    """The cuda_api.def rows the light mode subscribes to: name -> (class, sync, has stream,
    domain, direction)."""
    names = {}
    with open(f"{root}/rules/cuda_api.def", encoding="utf-8") as handle:
        for line in handle:
            m = ROW.match(line)
            if m and (m.group(4) != "NEVER" or m.group(3) in LIGHT_CLASSES):
                direction = re.search(r",\s*(\w+)\)\s*$", line)
                names[m.group(1)] = (m.group(3), m.group(4), m.group(5) != "-1", m.group(2),
                                     direction.group(1) if direction else "NONE")
    return names


def probe(row, fields, ops, enter_of):
    """The flags bits the light mode's probe gives call 'fields' (interpose/capture_light.c, capture_probe_enter)."""
    klass, sync, has_stream = row[:3]
    if klass in ("EVENT_SYNC", "QUERY") or (sync == "NEVER" and klass not in ("COPY", "MEMSET")):
        return 0
    enter, leave, correlation = int(fields[0]), int(fields[1]), fields[3]
    stream, stream_id, device = int(fields[5]), int(fields[6]), int(fields[12])
    legacy_sync = klass == "STREAM_SYNC" and (stream == 1 or (stream == 0 and fields[7] == "0"))
    one = has_stream and not legacy_sync
    streams = {}
    for op in ops:
        if one and op["stream"] != stream_id:
            continue
        if not one and device >= 0 and op["device"] >= 0 and op["device"] != device:
            continue
        enqueued = enter_of.get(op["correlation"])
        if enqueued is None or enqueued >= leave:
            continue
        state = streams.setdefault(op["stream"], [False, True])
        if enqueued < enter and op["correlation"] != correlation and op["end"] > enter:
            state[0] = True
        if op["end"] > leave + SLACK_NS:
            state[1] = False
    # A call held less than EXIT_MIN_NS is not asked at its exit (capture_probe_exit).
    waited = leave - enter >= EXIT_MIN_NS and any(pending and complete
                                                  for pending, complete in streams.values())
    pending = any(state[0] for state in streams.values())
    return PROBED | (WAITED if waited else 0) | (PENDING if pending else 0)


def idle_readback(row, fields, flags):
    """(stream, per_thread) of call 'fields' when it is a readback that found its stream idle
    (capture_light_note_readback: an asynchronous copy to the host of at most 16 bytes that
    succeeded, probed, nothing pending, not on a per-thread default stream), else None."""
    klass, sync, _, domain, direction = row
    stream, per_thread = fields[5], fields[7]
    to_host = direction == "D2H" or (direction == "KIND" and domain == "RT" and fields[9] == "2")
    if (klass == "COPY" and sync == "PAGEABLE" and to_host and 0 < int(fields[8]) <= 16
            and fields[11] == "0" and flags & PROBED and not flags & PENDING
            and stream != "2" and not (stream == "0" and per_thread == "1")):
        return (stream, per_thread)
    return None


def unprobe_readback_syncs(calls):
    """Clears the probe bits of each synchronization of a stream its thread makes right after
    a readback that found that stream idle, which the light mode does not ask about
    (capture_probe_enter). 'calls' are [thread, enter, order, row, fields, flags] of the
    recorded calls, nested driver calls aside; flags is updated in place."""
    last = {}
    for call in sorted(calls, key=lambda c: (c[0], c[1], c[2])):
        thread, _, _, row, fields, flags = call
        after = last.get(thread)
        if (after is not None and row[0] == "STREAM_SYNC" and row[1] == "EXPLICIT"
                and after == (fields[5], fields[7])):
            call[5] = flags & ~(PROBED | WAITED | PENDING)
        last[thread] = idle_readback(row, fields, call[5])


def convert(root, source, target):
    wanted = light_apis(root)
    with open(source, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    strings, kinds, ops, enter_of = {}, {}, [], {}
    for line in lines:
        words = line.split(" ")
        if words[0] == "str":
            strings[words[1]] = words[2]
        elif words[0] == "api":
            enter_of[words[1 + API_CORRELATION]] = int(words[1])
        if words[0] in ("memcpy", "memset"):
            fields = words[1:]
            kinds.setdefault(fields[OP_CORRELATION], (int(fields[OP_SRC]), int(fields[OP_DST])))
        if words[0] in ("kernel", "memcpy", "memset"):
            fields = words[1:]
            ops.append({"end": int(fields[1]), "correlation": fields[OP_CORRELATION],
                        "stream": int(fields[3]), "device": int(fields[5])})
    out, meta_done, recorded = [], False, []
    for line in lines:
        words = line.split(" ")
        key = words[0]
        if key in ("kernel", "memcpy", "memset", "sync", "args"):
            continue
        if key != "meta" and not meta_done and key not in ("SSTRACE", ""):
            out.append("meta mode light")
            out.append("meta probe_pending 1")
            out.append(f"meta probe_exit_min_ns {EXIT_MIN_NS}")
            meta_done = True
        if key == "SSTRACE":
            line = "SSTRACE 1 1" if any(w.startswith("scope ") for w in lines) else line
            line = line if words[2] in ("0", "1") else "SSTRACE 1 1"
        if key == "meta" and words[1] in ("mode", "sync_records", "kernel_activity"):
            continue
        if key == "api":
            fields = words[1:]
            name = strings.get(fields[API_NAME], "")
            base = re.sub(r"(_v[0-9]+)?(_ptsz|_ptds)?$", "", name)
            row = wanted.get(base, wanted.get(name))
            if row is None:
                continue
            flags = int(fields[API_FLAGS])
            if fields[API_CORRELATION] in kinds:
                src, dst = kinds[fields[API_CORRELATION]]
                if row[0] == "MEMSET" and row[1] == "NEVER" and dst in MEM_DEVICE_SIDE:
                    continue  # capture_light_skips: an asynchronous memset of device memory
                flags = MEM_KNOWN | src << 8 | dst
            flags |= probe(row, fields, ops, enter_of)
            fields[API_FLAGS] = str(flags)
            if fields[14] != "1":  # a nested driver call is not recorded in the light mode
                recorded.append([int(fields[2]), int(fields[0]), len(out), row, fields, flags])
            line = " ".join(["api"] + fields)
        if key == "end":
            events = sum(1 for kept in out if kept.split(" ")[0] in EVENT_RECORDS)
            line = " ".join(["end", str(events)] + words[2:])
        out.append(line)
    unprobe_readback_syncs(recorded)
    for _, _, at, _, fields, flags in recorded:
        fields[API_FLAGS] = str(flags)
        out[at] = " ".join(["api"] + fields)
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))
    return 0


# The traces whose light view answers otherwise than the full mode, and how (docs/run.md,
# "Modes"): ("full" or "light": the side that has it, rule, file name, line, count, latent).
# - a synchronization after an asynchronous copy with launches between them: the light mode
#   does not see the launches and takes the synchronization as the copy's own wait (no SYNC401)
#   (whatif_c_sync201, whatif_torch_sync301, real_gpt2_generate, real_timm_infer,
#   gpu_ddp_gloo_rank*);
# - calls whose time is close to the threshold (5 us) and that the light mode, which sees no
#   kernel, judges by whether their stream was busy at their entry and idle at their exit
#   (SYNC202 in whatif_ump_*: the sample's managed memory, the pair's short cudaMemcpy calls;
#   the event synchronization of simpleHyperQ and
#   whatif_soa_sample, SYNC402 of pinned allocations on the DataLoader's thread in
#   real_xthread_pin).
KNOWN = {
    "cuda_samples_simpleHyperQ": [("full", "SYNC401", "", 0, 1, True),
                                  ("light", "SYNC401", "", 0, 1, False)],
    "gpu_ddp_gloo_rank0": [("full", "SYNC401", "ddp_item.py", 48, 16, True),
                           ("light", "SYNC401", "ddp_item.py", 48, 3, False)],
    "gpu_ddp_gloo_rank1": [("full", "SYNC401", "ddp_item.py", 48, 16, True),
                           ("light", "SYNC401", "ddp_item.py", 48, 2, False)],
    "real_xthread_pin": [("full", "SYNC402", "xthread_pin.py", 29, 6, False)],
    "whatif_c_sync201": [("full", "SYNC401", "sync201_written.cu", 30, 1, False),
                         ("full", "SYNC401", "sync201_written.cu", 37, 1, False)],
    "whatif_soa_sample": [("light", "SYNC401", "", 0, 1, False)],
    "whatif_torch_sync301": [("full", "SYNC401", "torch_sync301.py", 28, 1, False)],
    "whatif_ump_pair": [("full", "SYNC202", "unified_memory_pair.cu", 86, 5, False),
                        ("full", "SYNC202", "unified_memory_pair.cu", 131, 39, False),
                        ("light", "SYNC202", "unified_memory_pair.cu", 86, 7, True),
                        ("light", "SYNC202", "unified_memory_pair.cu", 131, 140, True)],
    "whatif_ump_sample": [("full", "SYNC202", "", 0, 42, False)],
    "whatif_ump_inproc": [("full", "SYNC202", "unified_memory_pair.cu", 91, 2, False),
                          ("full", "SYNC202", "unified_memory_pair.cu", 137, 33, False),
                          ("light", "SYNC202", "unified_memory_pair.cu", 91, 7, True),
                          ("light", "SYNC202", "unified_memory_pair.cu", 137, 140, True)],
    "whatif_ump_inproc_2": [("full", "SYNC202", "unified_memory_pair.cu", 90, 1, False),
                            ("full", "SYNC202", "unified_memory_pair.cu", 91, 5, False),
                            ("full", "SYNC202", "unified_memory_pair.cu", 137, 58, False),
                            ("light", "SYNC202", "unified_memory_pair.cu", 90, 7, True),
                            ("light", "SYNC202", "unified_memory_pair.cu", 91, 7, True),
                            ("light", "SYNC202", "unified_memory_pair.cu", 137, 14, False)],
    "whatif_ump_inproc_3": [("full", "SYNC202", "unified_memory_pair.cu", 90, 1, False),
                            ("full", "SYNC202", "unified_memory_pair.cu", 91, 6, False),
                            ("full", "SYNC202", "unified_memory_pair.cu", 137, 66, False),
                            ("light", "SYNC202", "unified_memory_pair.cu", 90, 7, True),
                            ("light", "SYNC202", "unified_memory_pair.cu", 91, 1, False),
                            ("light", "SYNC202", "unified_memory_pair.cu", 137, 17, False)],
    "whatif_ump_inproc_rewritten": [("full", "SYNC202", "unified_memory_pair.cu", 91, 3, False),
                                    ("light", "SYNC202", "unified_memory_pair.cu", 91, 7, True)],
}


def findings(path, light_rules):
    """The findings of 'light_rules' in a JSON result, sorted (rule, file, line, count, latent)."""
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    rows = []
    for f in document.get("findings", []):
        if f.get("ruleId") in light_rules:
            rows.append((f.get("ruleId"), f.get("file") or "", f.get("line") or 0,
                         (f.get("evidence") or {}).get("count", 0), bool(f.get("latent"))))
    return sorted(rows)


def compare(syncscope, full, light):
    rules = gpu_expect.light_rules(syncscope)
    a, b = findings(full, rules), findings(light, rules)
    for row in sorted(set(a) - set(b)):
        print(f"only full:  {row}")
    for row in sorted(set(b) - set(a)):
        print(f"only light: {row}")
    print(f"{len(a)} full, {len(b)} light, {len(set(a) & set(b))} equal")
    return 0 if a == b else 1


def differences(full, light, rules):
    """The findings of one side only, as KNOWN writes them (file names, not paths)."""
    def short(rows):
        return [(r, os.path.basename(f), line, c, lat) for r, f, line, c, lat in rows]
    a, b = short(findings(full, rules)), short(findings(light, rules))
    only = [("full",) + row for row in a if row not in b]
    only += [("light",) + row for row in b if row not in a]
    return sorted(set(only))


def check(root, syncscope, workdir):
    """Every trace of tests/data: its light view answers as the full mode, or as KNOWN says."""
    os.makedirs(workdir, exist_ok=True)
    data = os.path.join(root, "tests", "data")
    failures, count = [], 0
    rules = gpu_expect.light_rules(syncscope)
    for name in sorted(f[:-8] for f in os.listdir(data) if f.endswith(".sstrace")):
        count += 1
        light_trace = os.path.join(workdir, f"{name}.light.sstrace")
        convert(root, os.path.join(data, f"{name}.sstrace"), light_trace)
        results = []
        for trace, tag in ((os.path.join(data, f"{name}.sstrace"), "full"), (light_trace, "light")):
            out = os.path.join(workdir, f"{name}.{tag}.json")
            done = subprocess.run([syncscope, "analyze", "--format", "json", "--fail-on", "none",
                                   "-o", out, trace], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                failures.append(f"{name}: analyze {tag}: exit {done.returncode}: {done.stderr}")
            results.append(out)
        if len(results) < 2 or not all(os.path.isfile(r) for r in results):
            continue
        found = differences(*results, rules)
        wanted = sorted(KNOWN.get(name, []))
        if found != wanted:
            failures.append(f"{name}: the light view differs by {found}, expected {wanted}")
    for failure in failures:
        print(f"FAIL: {failure}")
    if not failures:
        print(f"light_trace: {count} traces, {count - len(KNOWN)} answered alike, "
              f"{len(KNOWN)} with their known differences")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 5 and argv[1] == "check":
        return check(argv[2], argv[3], argv[4])
    if len(argv) == 5 and argv[1] == "compare":
        return compare(argv[2], argv[3], argv[4])
    if len(argv) == 4:
        return convert(argv[1], argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
