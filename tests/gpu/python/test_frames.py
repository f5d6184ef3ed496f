"""test_frames.py: checks the Python frame reader (interpose/python.c) in this interpreter.

Usage: python3 test_frames.py LIBRARY
LIBRARY is the pyframes test library. Each check calls it from known lines, once with the
GIL released (ctypes.CDLL) and once holding it (ctypes.PyDLL), and compares the frames it
read (function, file, line; innermost first) with the lines marked "# frame: NAME" here.
Exit status 0 when every check passes, 1 otherwise.
"""
import ctypes
import importlib.util
import os
import sys
import tempfile
import threading

HERE = os.path.abspath(__file__)
LINES = {}
with open(HERE, encoding="utf-8") as source:
    for number, text in enumerate(source, 1):
        if "# frame: " in text and not text.lstrip().startswith(("LINES", "if", "#")):
            LINES[text.split("# frame: ")[1].strip()] = number

QUALNAMES = sys.version_info >= (3, 11)
failures = []


def capture(lib, depth=8):
    buffer = ctypes.create_string_buffer(1 << 16)
    count = lib.ss_pyframes_capture(buffer, len(buffer), depth)
    text = buffer.value.decode("utf-8")
    frames = [tuple(line.split("\t")) for line in text.splitlines()]
    frames = [(function, file, int(line)) for function, file, line in frames]
    if count != len(frames):
        failures.append(f"capture returned {count} but wrote {len(frames)} frames")
    return frames


def expect(what, frames, wanted):
    """'wanted': (function, marker) innermost first; frames outside this file are ignored
    after the wanted ones (the harness that runs this file)."""
    want = [(function, HERE, LINES[marker]) for function, marker in wanted]
    got = frames[:len(want)]
    if got != want:
        failures.append(f"{what}:\n  expected {want}\n  got      {frames}")


def inner(lib, depth=8):
    return capture(lib, depth)  # frame: inner


def outer(lib, depth=8):
    return inner(lib, depth)  # frame: outer


class Model:
    def forward(self, lib):
        return capture(lib)  # frame: method


def generator(lib):
    yield capture(lib)  # frame: generator


def función(lib):
    return capture(lib)  # frame: unicode


# A library module (its path has a site-packages folder) that recurses and then reads the
# stack itself: past the depth limit, the reader keeps the first frame of the program's own
# code in place of the outermost library frame.
LIBRARY_SOURCE = '''import ctypes
def dive(lib, levels, depth):
    if levels == 0:
        buffer = ctypes.create_string_buffer(1 << 16)
        lib.ss_pyframes_capture(buffer, len(buffer), depth)
        return buffer.value.decode("utf-8")
    return dive(lib, levels - 1, depth)
'''


def capture_other(lib, depth=8):
    """The stack a thread without Python frames reads while this thread waits for it."""
    buffer = ctypes.create_string_buffer(1 << 16)
    count = lib.ss_pyframes_capture_other(buffer, len(buffer), depth)  # frame: capture_other
    frames = [tuple(line.split("\t")) for line in buffer.value.decode("utf-8").splitlines()]
    if count != len(frames):
        failures.append(f"capture_other returned {count} but wrote {len(frames)} frames")
    return [(function, file, int(line)) for function, file, line in frames]


def waiting(lib):
    return capture_other(lib)  # frame: waiting


def check_other_threads(lib, mode):
    """ss_python_capture_other: from a thread without Python frames, the stack of the thread
    that waits for it; with a second thread waiting in the program's code too, the older one
    (this, the main thread)."""
    expect(f"{mode}: other thread", waiting(lib), [("capture_other", "capture_other"),
                                                  ("waiting", "waiting")])
    release = threading.Event()
    parked = threading.Thread(target=lambda: release.wait())  # frame: parked
    parked.start()
    expect(f"{mode}: other thread, one more waiting", waiting(lib),
           [("capture_other", "capture_other"), ("waiting", "waiting")])
    release.set()
    parked.join()


def site_key(lib):
    """ss_python_site_key here: (frames mixed, hash, check)."""
    out = (ctypes.c_uint64 * 2)()
    n = lib.ss_pyframes_site_key(out)  # frame: site_key
    return n, out[0], out[1]


def key_here(lib):
    return site_key(lib)  # frame: key_here


def key_there(lib):
    return site_key(lib)  # frame: key_there


def key_deeper(lib):
    return key_here(lib)  # frame: key_deeper


def check_site_keys(lib, mode):
    """ss_python_site_key (the interposer's site cache): the same frames at the same
    instructions give the same key, through the first keys' checked reads and the direct ones
    after them; another line, another depth or another line of the caller give another."""
    keys = []
    for _ in range(12):
        keys.append(key_here(lib))  # frame: key_loop
    if keys[0][0] < 3 or any(k != keys[0] for k in keys):
        failures.append(f"{mode}: site keys at one line differ or are empty: {keys}")
    others = [key_there(lib), key_deeper(lib)]
    others.append(key_here(lib))  # frame: key_other_line
    for other in others:
        if other[0] < 3 or other[1] == keys[0][1] or other[2] == keys[0][2]:
            failures.append(f"{mode}: another site has the key {other}, the loop's {keys[0]}")
    if others[1][0] != keys[0][0] + 1:
        failures.append(f"{mode}: one frame deeper mixed {others[1][0]} frames, "
                        f"not {keys[0][0] + 1}")


def load_library_module():
    folder = os.path.join(tempfile.mkdtemp(prefix="ss_frames_"), "site-packages")
    os.makedirs(folder)
    path = os.path.join(folder, "ss_deeplib.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(LIBRARY_SOURCE)
    spec = importlib.util.spec_from_file_location("ss_deeplib", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def check_deep_library(lib, mode, deeplib, path):
    text = deeplib.dive(lib, 12, 4)  # frame: deep
    frames = [tuple(line.split("\t")) for line in text.splitlines()]
    frames = [(function, file, int(line)) for function, file, line in frames]
    if len(frames) != 4 or any(f[:2] != ("dive", path) for f in frames[:3]) or \
            frames[3] != ("check_deep_library", HERE, LINES["deep"]):
        failures.append(f"{mode}: deep library stack: {frames}")


def run_all(lib, mode):
    frames = outer(lib)  # frame: run_all
    expect(f"{mode}: nested calls", frames, [("capture", "capture"), ("inner", "inner"),
                                            ("outer", "outer"), ("run_all", "run_all")])
    frames = outer(lib, 2)
    if len(frames) != 2:
        failures.append(f"{mode}: depth 2 gave {len(frames)} frames: {frames}")
    method = "Model.forward" if QUALNAMES else "forward"
    expect(f"{mode}: method", Model().forward(lib), [("capture", "capture"), (method, "method")])
    expect(f"{mode}: generator", next(generator(lib)), [("capture", "capture"),
                                                        ("generator", "generator")])
    expect(f"{mode}: non-ASCII name", función(lib), [("capture", "capture"),
                                                     ("función", "unicode")])
    squares = [capture(lib) for _ in range(1)][0]  # frame: comprehension
    if squares[0] != ("capture", HERE, LINES["capture"]) or \
            (squares[1][2] != LINES["comprehension"]):
        failures.append(f"{mode}: comprehension: {squares[:3]}")
    result = []
    worker = threading.Thread(target=lambda: result.append(outer(lib)))  # frame: thread
    worker.start()
    worker.join()
    lam = "run_all.<locals>.<lambda>" if QUALNAMES else "<lambda>"
    expect(f"{mode}: thread", result[0], [("capture", "capture"), ("inner", "inner"),
                                          ("outer", "outer"), (lam, "thread")])
    check_deep_library(lib, mode, *DEEPLIB)
    check_other_threads(lib, mode)
    check_site_keys(lib, mode)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    # capture() itself is a frame: its line is where the library is called.
    LINES["capture"] = next(n for n, t in enumerate(open(HERE, encoding="utf-8"), 1)
                            if "count = lib.ss_pyframes_capture(" in t)
    released = ctypes.CDLL(sys.argv[1])
    held = ctypes.PyDLL(sys.argv[1])
    for lib in (released, held):
        lib.ss_pyframes_capture.restype = ctypes.c_int
        lib.ss_pyframes_capture.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint]
        lib.ss_pyframes_version.restype = ctypes.c_char_p
        lib.ss_pyframes_capture_other.restype = ctypes.c_int
        lib.ss_pyframes_capture_other.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                                   ctypes.c_uint]
        lib.ss_pyframes_site_key.restype = ctypes.c_int
        lib.ss_pyframes_site_key.argtypes = [ctypes.POINTER(ctypes.c_uint64)]
    global DEEPLIB
    DEEPLIB = load_library_module()
    outer(released)  # the first capture looks for the interpreter
    version = released.ss_pyframes_version().decode()
    wanted = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if version != wanted:
        failures.append(f"the reader says Python '{version}', this is {wanted}")
    run_all(released, "GIL released")
    run_all(held, "GIL held")
    for message in failures:
        print(f"FAIL: {message}", file=sys.stderr)
    if not failures:
        print(f"ok: Python {wanted}: frames read with and without the GIL, site keys")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
