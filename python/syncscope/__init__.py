"""syncscope: mark the part of a Python program that `syncscope run` reports on.

    import syncscope

    for step, batch in enumerate(loader):
        with syncscope.scope("train_step"):
            loss = model(batch).sum()
            loss.backward()
            print(loss.item())     # reported, with "scope": "train_step"

While a program has opened a scope, `syncscope run` (or LD_PRELOAD=libsyncscope.so) reports
only what it did inside its scopes; every thread counts while a scope is open, since PyTorch
runs the backward pass on threads of its own (docs/run.md, "Scopes").

Importing this module costs nothing: it imports no other module. The first scope looks for
the syncscope interposer in the process (ctypes, once); without it, a scope does nothing, so
the marks can stay in code that runs unobserved.
"""

__all__ = ["scope", "observed"]

_UNRESOLVED = object()
_entry = _UNRESOLVED  # (begin, end) of libsyncscope.so, or None when it is not loaded


def _resolve():
    """The interposer's syncscope_scope_begin and syncscope_scope_end, or None."""
    global _entry
    if _entry is not _UNRESOLVED:
        return _entry
    found = None
    try:
        import ctypes
        import os

        candidates = [lambda: ctypes.CDLL(None)]
        noload = getattr(os, "RTLD_NOLOAD", 0)
        if noload:
            # Loaded by CUDA_INJECTION64_PATH rather than LD_PRELOAD: not in the global scope.
            candidates.append(lambda: ctypes.CDLL("libsyncscope.so", mode=noload))
        for load in candidates:
            try:
                library = load()
                begin = library.syncscope_scope_begin
                end = library.syncscope_scope_end
            except (OSError, AttributeError):
                continue
            begin.argtypes = [ctypes.c_char_p]
            begin.restype = ctypes.c_uint64
            end.argtypes = [ctypes.c_uint64]
            end.restype = None
            found = (begin, end)
            break
    except ImportError:
        found = None
    _entry = found
    return found


def observed():
    """Whether the syncscope interposer is loaded into this process."""
    return _resolve() is not None


class scope:
    """A region of the program that syncscope reports on: a context manager, or a decorator.

    `name` (default "syncscope") is shown with each finding made inside it ("scope" in JSON,
    text and SARIF). Scopes nest; each `with` opens a range of its own, so one object may be
    entered again, also from several threads: a range belongs to the whole process, so which of
    an object's open ranges an exit closes does not change what lies inside a scope.
    """

    __slots__ = ("name", "_encoded", "_ids")

    def __init__(self, name="syncscope"):
        self.name = str(name)
        self._encoded = self.name.encode("utf-8", "replace")
        self._ids = []

    def __enter__(self):
        entry = _resolve()
        self._ids.append(entry[0](self._encoded) if entry is not None else 0)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        opened = self._ids.pop() if self._ids else 0
        if opened:
            _entry[1](opened)
        return False

    def __call__(self, function):
        name = self.name

        def scoped(*args, **kwargs):
            with scope(name):
                return function(*args, **kwargs)

        scoped.__name__ = getattr(function, "__name__", "scoped")
        scoped.__qualname__ = getattr(function, "__qualname__", scoped.__name__)
        scoped.__doc__ = getattr(function, "__doc__", None)
        scoped.__wrapped__ = function
        return scoped

    def __repr__(self):
        return f"syncscope.scope({self.name!r})"
