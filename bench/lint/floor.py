"""floor.py: what the lint benchmarks share (bench/lint/run.py, bench/lint-real/run.py).

The parse floor is what no analysis can beat without a cache: clang parsing the same files,
with the same arguments, one process per file, one file after another. `analyzer_args`
gives the arguments that analyzer/toolkit.c (ss_toolkit_args) and analyzer/clang_args.c
(ss_job_args) put before a compile command's own, and `analyzer_args_after` the toolkit's
include folders they put after it, so that the floor parses exactly what lint parses; keep
it in step with those two files. Standard library only.
"""
import os
import re
import statistics
import subprocess
import tempfile
import time

# analyzer/cuda_decls.h: ss_shim_cudacc, included after clang's CUDA wrapper header.
CUDACC_SHIM_TEXT = ("/* __CUDACC__ as nvcc defines it (clang's CUDA wrapper leaves it empty). */\n"
                    "#undef __CUDACC__\n#define __CUDACC__ 1\n")

# File name endings and the language lint parses them as (analyzer/flags.c, ss_flags_lang_of).
LANG_OF_EXT = {".cu": "cuda", ".cuh": "cuda", ".c": "c", ".cc": "c++", ".cpp": "c++",
               ".cxx": "c++", ".c++": "c++", ".C": "c++", ".h": "c++", ".hh": "c++",
               ".hpp": "c++", ".hxx": "c++"}
# -x values (analyzer/flags.c, lang_of_x).
LANG_OF_X = {"cu": "cuda", "cuda": "cuda", "c++": "c++", "c++-header": "c++", "c": "c",
             "c-header": "c"}


def measure(argv, cwd=None):
    """Runs argv (standard output discarded); returns {seconds: wall time, cpu: user + system
    seconds, rss: peak resident set in KiB, rc: exit status, stderr: its text}. CPU time is
    the steadier figure on a machine shared with other work."""
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.monotonic() - start
        err.seek(0)
        return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime,
                "rss": usage.ru_maxrss, "rc": os.waitstatus_to_exitcode(status),
                "stderr": err.read().decode(errors="replace")}


def timed(argv, cwd=None):
    """measure() as (seconds, peak RSS in KiB, exit status, stderr text)."""
    m = measure(argv, cwd)
    return m["seconds"], m["rss"], m["rc"], m["stderr"]


def make_shims(scratch):
    """Writes the analyzer's in-memory headers as real files under 'scratch': a folder with an
    empty texture_fetch_functions.h, and the __CUDACC__ header. Returns (folder, header)."""
    shim = os.path.join(scratch, "shim")
    os.makedirs(shim, exist_ok=True)
    open(os.path.join(shim, "texture_fetch_functions.h"), "w").close()
    cudacc = os.path.join(scratch, "__syncscope_cudacc.h")
    with open(cudacc, "w", encoding="utf-8") as f:
        f.write(CUDACC_SHIM_TEXT)
    return shim, cudacc


def lang_of(path, argv=(), extra=()):
    """The language lint parses 'path' as: by its name, then the last -x of its compile command
    'argv' (nvcc's -x cu, --x), then of the extra arguments 'extra'."""
    lang = LANG_OF_EXT.get(os.path.splitext(path)[1], "c++")
    for args, nvcc_forms in ((argv, True), (extra, False)):
        args = list(args)
        for i, a in enumerate(args):
            value = None
            if (a == "-x" or (nvcc_forms and a == "--x")) and i + 1 < len(args):
                value = args[i + 1]
            elif a.startswith("-x") and len(a) > 2 and not a.startswith("-x="):
                value = a[2:]
            elif nvcc_forms and (a.startswith("--x=") or a.startswith("-x=")):
                value = a.split("=", 1)[1]
            if value is not None:
                lang = LANG_OF_X.get(value, lang)
    return lang


def analyzer_args(lang, cuda, shims):
    """The clang arguments lint puts before the compile command's own for a file of language
    'lang' ("c", "c++" or "cuda"), with the toolkit at 'cuda'; 'shims' is make_shims()'s
    result. Ends with -w (lint reports no warnings) and -ferror-limit=0 (lint parses past any
    number of errors)."""
    shim, cudacc = shims
    args = ["-x", lang]
    if lang == "cuda":
        args += ["-std=c++17", "--cuda-host-only", "-nocudalib", "-Wno-unknown-cuda-version",
                 f"--cuda-path={cuda}", "-Xclang", "-fcuda-allow-variadic-functions",
                 "-include", cudacc]
    return args + ["-w", "-ferror-limit=0"]


def analyzer_args_after(lang, cuda, shims):
    """The toolkit's include folders, which lint puts after the compile command's own
    arguments (and after --extra-arg), as nvcc searches them: a project's own newer CCCL given
    with -isystem wins over the toolkit's."""
    shim, _ = shims
    args = []
    if lang == "cuda":
        if not os.path.isfile(os.path.join(cuda, "include", "texture_fetch_functions.h")):
            args += ["-isystem", shim]
    else:
        args += ["-isystem", os.path.join(cuda, "include")]
    if lang != "c" and os.path.isdir(os.path.join(cuda, "include", "cccl")):
        args += ["-isystem", os.path.join(cuda, "include", "cccl")]
    return args


def first_error(stderr_text):
    """The first 'error:' line of clang's output, or None."""
    for line in stderr_text.splitlines():
        if re.search(r"\berror:", line):
            return line.strip()
    return None


def run_floor(commands):
    """Runs each (cwd, argv, file) of 'commands' in turn. Returns the total wall and CPU
    seconds, the largest peak RSS (KiB), the count of 'error:' lines, the count of failed
    files, and {file: first error line} for the files that failed."""
    total = cpu = 0.0
    peak = 0
    errors = 0
    failed = {}
    for cwd, argv, file in commands:
        m = measure(argv, cwd)
        total += m["seconds"]
        cpu += m["cpu"]
        peak = max(peak, m["rss"])
        errors += len(re.findall(r"\berror:", m["stderr"]))
        if m["rc"] != 0:
            failed[file] = first_error(m["stderr"]) or f"exit status {m['rc']}"
    return {"seconds": total, "cpu": cpu, "rss": peak, "errors": errors, "failed": len(failed),
            "failed_files": failed}


def machine_line():
    """'N x CPU model' of this machine."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} x {model}"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value, digits=2, suffix=""):
    return "n/a" if value is None else f"{value:.{digits}f}{suffix}"
