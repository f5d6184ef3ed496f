#!/usr/bin/env python3
"""light_trace.py: what the light mode would have recorded of a run recorded in the full mode.

  light_trace.py ROOT FULL.sstrace LIGHT.sstrace
      Writes LIGHT.sstrace: FULL.sstrace with the metadata "mode" light, without the calls the
      light mode does not subscribe to (rules/cuda_api.def rows that ss_api_light leaves out:
      launches, event records, stream waits, host functions, graph launches, prefetches,
      attaches) and asynchronous memsets of device memory, without GPU and synchronization
      records and the pointer records but those of its allocations and frees, and with each
      copy's and memset's memory kinds moved from its GPU record into its call's flags word,
      as the light mode records them (evlog.h, SS_API_MEM_WORD), and what the light mode's
      probe of pending work would have said (SS_API_PROBED, SS_API_WAITED, SS_API_PENDING;
      metadata probe_pending 1): work of the streams the call
      may wait for (its own stream, or every stream of its device) pending at its entry, and
      one of those streams complete at its exit, not asked for a call held less than 5 us
      (metadata probe_exit_min_ns), nor for the synchronization of a stream right after a
      readback of its thread that found that stream idle. Asynchronous copies between device
      memory are left out too; after each call left out (such a copy, or such a memset) the
      next recorded call of its thread is marked SS_API_BETWEEN (trace format 1.4). ROOT is
      the source tree (for cuda_api.def).
  light_trace.py compare SYNCSCOPE FULL.json LIGHT.json
      Compares the findings of the light rules (those `SYNCSCOPE rules --format json` marks
      "lightMode") of two `syncscope analyze --format json` results as (rule, file, line,
      count, latent); prints the differences.
  light_trace.py check ROOT SYNCSCOPE WORKDIR
      For every trace tests/data/NAME.sstrace: its light view, both analyzed, the light rules'
      findings equal, except the differences KNOWN pins for a trace (exactly those: rule, file
      name, line, count, latent, and on which side); its light view with the copies between
      device memory recorded (as the light mode did before 1.4) gives the same findings, all
      of them, as the view without them; and each recorded light trace of tests/data/light
      gives the same findings with those copies left out and the next calls marked.
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
# SS_API_BETWEEN (evlog.h, trace format 1.4): a copy between device memory or a memset of device
# memory that the light mode left out came between the call and its thread's previous recorded
# call.
BETWEEN = 0x08000000
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
    (capture_probe_enter), unless a call left out came between (SS_API_BETWEEN). 'calls' are
    [thread, enter, order, row, fields, flags, ...] of the recorded calls, nested driver calls
    aside; flags is updated in place."""
    last = {}
    for call in sorted(calls, key=lambda c: (c[0], c[1], c[2])):
        thread, _, _, row, fields, flags = call[:6]
        after = last.get(thread) if not flags & BETWEEN else None
        if (after is not None and row[0] == "STREAM_SYNC" and row[1] == "EXPLICIT"
                and after == (fields[5], fields[7])):
            call[5] = flags & ~(PROBED | WAITED | PENDING)
        last[thread] = idle_readback(row, fields, call[5])


def device_copy(row, fields, src, dst):
    """Whether call 'fields' of cuda_api.def row 'row' with memory kinds 'src' and 'dst' is an
    asynchronous copy between device memory, which the light mode leaves out
    (capture_light_device_copy): a device-to-device or peer row, or a runtime copy whose kind
    argument is device to device (3) or default (4), or a driver one, or none."""
    klass, sync, _, domain, direction = row
    if klass != "COPY" or sync != "PAGEABLE" or src not in MEM_DEVICE_SIDE \
            or dst not in MEM_DEVICE_SIDE:
        return False
    kind = int(fields[9])
    return direction in ("D2D", "PEER") or (
        direction == "KIND" and (domain != "RT" or kind < 0 or kind >= 3))


def mark_between(calls):
    """Leaves out the copies between device memory among 'calls' ([thread, enter, order, left
    out, fields] of the recorded calls, nested driver calls aside) and sets SS_API_BETWEEN on
    the next recorded call of each one's thread (capture_light_passes_copy). Returns the
    orders of the calls left out."""
    pending, left = set(), set()
    for thread, _, order, out, fields in sorted(calls, key=lambda c: (c[0], c[1], c[2])):
        if out:
            pending.add(thread)
            left.add(order)
        elif thread in pending:
            fields[API_FLAGS] = str(int(fields[API_FLAGS]) | BETWEEN)
            pending.discard(thread)
    return left


def leave_out_device_copies(source, target):
    """Writes 'target': light trace 'source', recorded when the light mode kept its copies
    between device memory, as the light mode records the same run now: those copies (and the
    driver calls inside them) left out, their threads' next calls marked SS_API_BETWEEN.
    Returns how many were left out."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    wanted = light_apis(root)
    with open(source, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    strings, calls, words_of = {}, [], {}
    for at, line in enumerate(lines):
        words = line.split(" ")
        if words[0] == "str":
            strings[words[1]] = words[2]
        if words[0] != "api" or words[1 + 14] == "1":
            continue
        fields = words[1:]
        name = strings.get(fields[API_NAME], "")
        base = re.sub(r"(_v[0-9]+)?(_ptsz|_ptds)?$", "", name)
        row = wanted.get(base, wanted.get(name))
        flags = int(fields[API_FLAGS])
        out = row is not None and flags & MEM_KNOWN != 0 and device_copy(
            row, fields, flags >> 8 & 0xff, flags & 0xff)
        calls.append([int(fields[2]), int(fields[0]), at, out, fields])
        words_of[at] = fields
    left = mark_between(calls)
    for at, fields in words_of.items():
        lines[at] = " ".join(["api"] + fields)
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(drop_left_out(lines, left, calls) if left else lines))
    return len(left)


def kept_correlations(lines, strings, wanted):
    """The correlation ids of the calls the light mode records: a row it subscribes to, not a
    driver call nested in a runtime call."""
    kept = set()
    for line in lines:
        words = line.split(" ")
        if words[0] != "api":
            continue
        fields = words[1:]
        name = strings.get(fields[API_NAME], "")
        base = re.sub(r"(_v[0-9]+)?(_ptsz|_ptds)?$", "", name)
        if wanted.get(base, wanted.get(name)) is not None and fields[14] != "1":
            kept.add(fields[API_CORRELATION])
    return kept


def is_kept_pointer(words, kept):
    """Whether 'args' record 'words' is one the light mode records too: the address an
    allocation returned or a free was handed (kinds 3 and 4; capture_callbacks.c,
    records_pointers), of a call it records."""
    return words[0] == "args" and words[3] in ("3", "4") and words[2] in kept


def convert(root, source, target, keep_device_copies=False):
    """Writes the light view of full trace 'source' to 'target'; with 'keep_device_copies', as
    the light mode recorded it before it left out its copies between device memory."""
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
    kept = kept_correlations(lines, strings, wanted)
    pointers = any(is_kept_pointer(line.split(" "), kept) for line in lines)
    out, meta_done, recorded = [], False, []
    for line in lines:
        words = line.split(" ")
        key = words[0]
        if key in ("kernel", "memcpy", "memset", "sync") or (
                key == "args" and not is_kept_pointer(words, kept)):
            continue
        if key != "meta" and not meta_done and key not in ("SSTRACE", ""):
            out.append("meta mode light")
            out.append("meta probe_pending 1")
            out.append(f"meta probe_exit_min_ns {EXIT_MIN_NS}")
            meta_done = True
        if key == "SSTRACE":
            line = "SSTRACE 1 1" if any(w.startswith("scope ") for w in lines) else line
            line = line if words[2] in ("0", "1") else "SSTRACE 1 1"
            line = "SSTRACE 1 2" if pointers else line
        if key == "meta" and words[1] in ("mode", "sync_records", "kernel_activity"):
            continue
        if key == "api":
            fields = words[1:]
            name = strings.get(fields[API_NAME], "")
            base = re.sub(r"(_v[0-9]+)?(_ptsz|_ptds)?$", "", name)
            row = wanted.get(base, wanted.get(name))
            if row is None:
                continue
            flags, left_out = int(fields[API_FLAGS]), False
            if fields[API_CORRELATION] in kinds:
                src, dst = kinds[fields[API_CORRELATION]]
                flags = MEM_KNOWN | src << 8 | dst
                # capture_light_skips: an asynchronous memset of device memory, left out and
                # its thread's next recorded call marked (capture_light_left_out), kept or not
                # the copies between device memory
                left_out = (row[0] == "MEMSET" and row[1] == "NEVER" and dst in MEM_DEVICE_SIDE
                            ) or (not keep_device_copies and device_copy(row, fields, src, dst))
            if not left_out:
                flags |= probe(row, fields, ops, enter_of)
            fields[API_FLAGS] = str(flags)
            if fields[14] != "1":  # a nested driver call is not recorded in the light mode
                recorded.append([int(fields[2]), int(fields[0]), len(out), row, fields, flags,
                                 left_out])
            line = " ".join(["api"] + fields)
        if key == "end":
            events = sum(1 for kept in out if kept.split(" ")[0] in EVENT_RECORDS)
            line = " ".join(["end", str(events)] + words[2:])
        out.append(line)
    left = mark_between([[c[0], c[1], c[2], c[6], c[4]] for c in recorded])
    for call in recorded:
        call[5] |= int(call[4][API_FLAGS]) & BETWEEN
    unprobe_readback_syncs([c for c in recorded if c[2] not in left])
    for thread, enter, at, _, fields, flags, _ in recorded:
        fields[API_FLAGS] = str(flags)
        out[at] = " ".join(["api"] + fields)
    if left:
        out = drop_left_out(out, left, recorded)
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))
    return 0


def drop_left_out(out, left, recorded):
    """'out' without the lines 'left' (copies left out) and the driver calls inside them, its
    header 1.4 and its end record's count of events. 'recorded' are the calls, each [thread,
    enter, line, ..., fields, ...]."""
    spans = [(c[0], c[1], int(c[4][1])) for c in recorded if c[2] in left]
    kept = []
    for at, line in enumerate(out):
        words = line.split(" ")
        if at in left:
            continue
        if words[0] == "api" and words[1 + 14] == "1" and any(
                t == int(words[3]) and e <= int(words[1]) and int(words[2]) <= x
                for t, e, x in spans):
            continue  # a driver call inside a copy left out
        if words[0] == "SSTRACE":
            line = "SSTRACE 1 4"
        if words[0] == "end":
            events = sum(1 for k in kept if k.split(" ")[0] in EVENT_RECORDS)
            line = " ".join(["end", str(events)] + words[2:])
        kept.append(line)
    return kept


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


def all_findings(syncscope, trace, workdir):
    """The findings of `syncscope analyze --format json` of 'trace' (its JSON written into
    'workdir'), or the error."""
    out = os.path.join(workdir, os.path.basename(trace) + ".json")
    done = subprocess.run([syncscope, "analyze", "--format", "json", "--fail-on", "none", "-o",
                           out, trace], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"analyze {trace}: exit {done.returncode}: {done.stderr}"
    with open(out, encoding="utf-8") as handle:
        return json.load(handle)["findings"]


def same_findings(syncscope, a, b, what, workdir):
    """[] when traces 'a' and 'b' (of different names) give the same findings, else a failure
    naming 'what'."""
    first, second = all_findings(syncscope, a, workdir), all_findings(syncscope, b, workdir)
    if isinstance(first, str) or isinstance(second, str) or first != second:
        return [f"{what} answers otherwise than with them left out: {first} vs {second}"]
    return []


def check_between(root, syncscope, workdir):
    """The recorded light traces of tests/data/light: with their copies between device memory
    left out and the next calls marked SS_API_BETWEEN, as the light mode records them now, the
    same findings, all of them. (In these runs no such copy comes between a readback and its
    synchronization, so the marks change nothing here; tests/unit check_detect
    test_light_copy_between_readback_and_sync has a case where they do.)"""
    failures, left = [], {}
    folder = os.path.join(root, "tests", "data", "light")
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".light.sstrace")):
        source = os.path.join(folder, name)
        target = os.path.join(workdir, name.replace(".light.", ".between."))
        left[name] = leave_out_device_copies(source, target)
        failures += same_findings(syncscope, source, target, f"{name} (copies recorded)",
                                  workdir)
    if left.get("gpt2_generate.light.sstrace") != 408 or \
            left.get("resnet_train.light.sstrace") != 62:
        failures.append(f"copies between device memory left out: {left}, expected 408 of "
                        "gpt2_generate and 62 of resnet_train")
    return failures


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
        kept = os.path.join(workdir, f"{name}.kept.sstrace")
        convert(root, os.path.join(data, f"{name}.sstrace"), kept, keep_device_copies=True)
        failures += same_findings(syncscope, kept, light_trace, f"{name}: the light view with "
                                  "its copies between device memory recorded", workdir)
        if len(results) < 2 or not all(os.path.isfile(r) for r in results):
            continue
        found = differences(*results, rules)
        wanted = sorted(KNOWN.get(name, []))
        if found != wanted:
            failures.append(f"{name}: the light view differs by {found}, expected {wanted}")
    failures += check_between(root, syncscope, workdir)
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
