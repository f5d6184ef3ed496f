/* python.c: reads the calling thread's Python stack (file, function, line per frame) from
 * CPython's own thread state and frames, without the GIL and without allocating, for the
 * interpreter versions whose layouts are known: 3.10, 3.11, 3.12 from built-in tables and
 * 3.13 from the _Py_DebugOffsets the interpreter publishes for tools like this one. */
#include "python.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* A field a version does not have. */
#define NO_FIELD ((size_t)-1)
/* Frames walked per capture at most (kept and skipped together): a bound on time. */
#define MAX_HOPS 256
/* Thread states looked at per capture of another thread's stack at most. */
#define MAX_THREADS 32
/* Where PyThreadState.next is: the same in 3.10 to 3.13 (after 'prev'). */
#define TS_NEXT 8
/* Captures that read through process_vm_readv, which fails instead of faulting, while the
 * chosen layout is being confirmed on real frames; later captures read memory directly. */
#define CHECKED_WALKS 8

/* CPython's frame owners (Include/internal/pycore_frame.h, 3.11+). */
#define OWNED_BY_GENERATOR 1
#define OWNED_BY_CSTACK 3

/* Where the fields syncscope reads are, for one interpreter version (x86-64 and AArch64:
 * both LP64, same layout). Offsets were taken from each version's headers. */
typedef struct py_layout {
    int minor;
    size_t ts_frame;          /* thread state: 3.10 frame, 3.11/3.12 cframe, 3.13 current_frame */
    size_t cframe_current;    /* _PyCFrame.current_frame (3.11, 3.12) */
    int frame_object;         /* 1: 3.10's PyFrameObject chain, with f_lasti in code units */
    size_t fr_previous;       /* f_back / previous */
    size_t fr_code;           /* f_code / f_executable */
    size_t fr_instr;          /* f_lasti / prev_instr / instr_ptr */
    size_t fr_owner;          /* owner (3.11+) */
    size_t co_size;           /* ob_size: code units (3.11+) */
    size_t co_filename;       /* co_filename */
    size_t co_name;           /* co_qualname (3.11+), co_name (3.10) */
    size_t co_firsttraceable; /* _co_firsttraceable (3.11+) */
    size_t co_code_adaptive;  /* co_code_adaptive (3.11+) */
    size_t ob_type;           /* PyObject.ob_type */
    size_t str_length;        /* PyASCIIObject.length */
    size_t str_state;         /* PyASCIIObject.state */
    size_t str_ascii_size;    /* sizeof(PyASCIIObject): compact ASCII data follow */
    size_t str_compact_size;  /* sizeof(PyCompactUnicodeObject): compact non-ASCII data */
} py_layout;

static const py_layout layouts[] = {
    {.minor = 10,
     .ts_frame = 24,
     .cframe_current = NO_FIELD,
     .frame_object = 1,
     .fr_previous = 24,
     .fr_code = 32,
     .fr_instr = 96,
     .fr_owner = NO_FIELD,
     .co_size = NO_FIELD,
     .co_filename = 104,
     .co_name = 112,
     .co_firsttraceable = NO_FIELD,
     .co_code_adaptive = NO_FIELD,
     .ob_type = 8,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_size = 48,
     .str_compact_size = 72},
    {.minor = 11,
     .ts_frame = 56,
     .cframe_current = 8,
     .fr_previous = 48,
     .fr_code = 32,
     .fr_instr = 56,
     .fr_owner = 69,
     .co_size = 16,
     .co_filename = 112,
     .co_name = 128,
     .co_firsttraceable = 168,
     .co_code_adaptive = 184,
     .ob_type = 8,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_size = 48,
     .str_compact_size = 72},
    {.minor = 12,
     .ts_frame = 56,
     .cframe_current = 0,
     .fr_previous = 8,
     .fr_code = 0,
     .fr_instr = 56,
     .fr_owner = 70,
     .co_size = 16,
     .co_filename = 112,
     .co_name = 128,
     .co_firsttraceable = 176,
     .co_code_adaptive = 192,
     .ob_type = 8,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_size = 40,
     .str_compact_size = 56},
    {.minor = 13,
     .ts_frame = 72,
     .cframe_current = NO_FIELD,
     .fr_previous = 8,
     .fr_code = 0,
     .fr_instr = 56,
     .fr_owner = 70,
     .co_size = 16,
     .co_filename = 112,
     .co_name = 128,
     .co_firsttraceable = 184,
     .co_code_adaptive = 200,
     .ob_type = 8,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_size = 40,
     .str_compact_size = 56},
};

/* 3.13's _Py_DebugOffsets (Include/internal/pycore_runtime.h), at the start of _PyRuntime:
 * where each offset syncscope uses is stored in it. */
#define DBG_COOKIE "xdebugpy"
#define DBG_VERSION 8
#define DBG_FREE_THREADED 16
#define DBG_TS_CURRENT_FRAME 184
#define DBG_FR_PREVIOUS 232
#define DBG_FR_EXECUTABLE 240
#define DBG_FR_INSTR_PTR 248
#define DBG_FR_OWNER 264
#define DBG_CO_FILENAME 280
#define DBG_CO_QUALNAME 296
#define DBG_CO_CODE_ADAPTIVE 344
#define DBG_OB_TYPE 360
#define DBG_STR_STATE 544
#define DBG_STR_LENGTH 552
#define DBG_STR_ASCII_SIZE 560

enum { PY_ABSENT = 0, PY_READY, PY_UNREADABLE };

static struct {
    _Atomic int state;
    _Atomic int told;              /* the "cannot read" line was printed */
    _Atomic int checked_left;      /* captures still read with checked reads */
    _Atomic int keys_checked_left; /* site keys still read with checked reads */
    int no_vm;                     /* process_vm_readv is not permitted here */
    py_layout layout;
    const void *code_type;
    const void *unicode_type;
    int (*is_initialized)(void);
    void *(*this_thread_state)(void);
    void *(*interpreter_head)(void);    /* PyInterpreterState_Head */
    void *(*thread_head)(void *interp); /* PyInterpreterState_ThreadHead */
    int (*addr2line)(void *code, int addrq);
    char version[16];
    char why[200];
    ss_python_say_fn say;
} py;

/* ---- reading memory ---- */

typedef struct reader {
    int checked; /* 1: through process_vm_readv */
    int strict;  /* 1: fail, never read directly, when process_vm_readv is not permitted */
    pid_t pid;
} reader;

static int plausible(uintptr_t p)
{
    return p >= 4096 && p < ((uintptr_t)1 << 57);
}

/* Copies 'n' bytes at 'addr'. Returns 0, or -1 when the address is implausible or (checked)
 * not mapped. Inlined: a read of a constant size is then one load (the site keys read a few
 * words per frame at every stack). */
static inline __attribute__((always_inline)) int read_mem(const reader *rd, uintptr_t addr,
                                                          void *out, size_t n)
{
    if (!plausible(addr) || !plausible(addr + n))
        return -1;
    if (rd->checked && !py.no_vm) {
        struct iovec local = {out, n}, remote = {(void *)addr, n};
        ssize_t got = process_vm_readv(rd->pid, &local, 1, &remote, 1, 0);
        if (got == (ssize_t)n)
            return 0;
        if (got >= 0 || (errno != ENOSYS && errno != EPERM && errno != EACCES))
            return -1;
        py.no_vm = 1; /* not permitted here: plausibility and type checks only */
    }
    if (rd->strict)
        return -1;
    memcpy(out, (const void *)addr, n);
    return 0;
}

static inline __attribute__((always_inline)) int read_ptr(const reader *rd, uintptr_t addr,
                                                          uintptr_t *out)
{
    if (addr % sizeof(void *) != 0)
        return -1;
    return read_mem(rd, addr, out, sizeof *out);
}

/* Whether the object at 'obj' has type 'type'. */
static inline __attribute__((always_inline)) int has_type(const reader *rd, uintptr_t obj,
                                                          const void *type)
{
    uintptr_t t;
    if (obj == 0 || obj % sizeof(void *) != 0 || read_ptr(rd, obj + py.layout.ob_type, &t) < 0)
        return 0;
    return t == (uintptr_t)type;
}

static size_t put_utf8(char *out, size_t at, size_t size, uint32_t cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xc0 | cp >> 6);
        b[1] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xe0 | cp >> 12);
        b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        b[2] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xf0 | (cp >> 18 & 0x07));
        b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
        b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        b[3] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    if (at + n >= size)
        return at;
    memcpy(out + at, b, n);
    return at + n;
}

/* The text of the str object 'obj' as UTF-8 into 'out' ('size' bytes, cut to fit), read
 * from its compact representation. Returns 0 ("?" for a string that is not compact), or
 * -1 when 'obj' is not a str: the layout is wrong. */
static int read_text(const reader *rd, uintptr_t obj, char *out, size_t size)
{
    const py_layout *L = &py.layout;
    if (!has_type(rd, obj, py.unicode_type))
        return -1;
    uint32_t state;
    int64_t length;
    if (read_mem(rd, obj + L->str_state, &state, sizeof state) < 0 ||
        read_mem(rd, obj + L->str_length, &length, sizeof length) < 0 || length < 0)
        return -1;
    unsigned kind = state >> 2 & 7, compact = state >> 5 & 1, ascii = state >> 6 & 1;
    if (!compact || (kind != 1 && kind != 2 && kind != 4)) {
        snprintf(out, size, "?");
        return 0;
    }
    size_t count = (size_t)length;
    if (ascii) {
        if (count > size - 1)
            count = size - 1;
        if (read_mem(rd, obj + L->str_ascii_size, out, count) < 0)
            return -1;
        out[count] = '\0';
        return 0;
    }
    unsigned char units[512];
    size_t at = 0, done = 0;
    uintptr_t data = obj + L->str_compact_size;
    while (done < count && at + 1 < size) {
        size_t chunk = (count - done) * kind;
        if (chunk > sizeof units)
            chunk = sizeof units / kind * kind;
        if (read_mem(rd, data + done * kind, units, chunk) < 0)
            return -1;
        for (size_t i = 0; i < chunk / kind && at + 1 < size; i++) {
            uint32_t cp;
            if (kind == 1) {
                cp = units[i];
            } else if (kind == 2) {
                uint16_t u;
                memcpy(&u, units + 2 * i, 2);
                cp = u;
            } else {
                memcpy(&cp, units + 4 * i, 4);
            }
            size_t next = put_utf8(out, at, size, cp);
            if (next == at)
                break;
            at = next;
        }
        done += chunk / kind;
    }
    out[at] = '\0';
    return 0;
}

/* ---- frames ---- */

/* The frame id of ('code', 'offset'), resolving it when new. Returns the id, 0 when the
 * table is full, or UINT32_MAX when what was read is not what the layout promised. */
static uint32_t resolve(const reader *rd, ss_py_table *table, uintptr_t code, int32_t offset)
{
    const py_layout *L = &py.layout;
    uintptr_t file_obj, name_obj;
    if (read_ptr(rd, code + L->co_filename, &file_obj) < 0 ||
        read_ptr(rd, code + L->co_name, &name_obj) < 0)
        return UINT32_MAX;
    uint64_t check = (uint64_t)file_obj * 31 ^ (uint64_t)name_obj;
    uint32_t id = ss_py_find(table, code, offset, check);
    if (id != 0)
        return id;
    char file[1024], function[256];
    if (read_text(rd, file_obj, file, sizeof file) < 0 ||
        read_text(rd, name_obj, function, sizeof function) < 0)
        return UINT32_MAX;
    /* PyCode_Addr2Line reads the code object's line table only: no lock, no allocation,
     * no reference count (3.10-3.13); a negative offset gives the first line. */
    int line = py.addr2line((void *)code, offset);
    return ss_py_add(table, code, offset, check, file, function, line > 0 ? (uint32_t)line : 0);
}

/* The byte offset of the instruction a frame is at (-1 before the first one), or -2 when
 * the frame has not started running its code yet (CPython's "incomplete" frames). */
static inline __attribute__((always_inline)) int32_t frame_offset(const reader *rd, uintptr_t frame,
                                                                  uintptr_t code, int owner)
{
    const py_layout *L = &py.layout;
    if (L->frame_object) {
        int32_t lasti;
        if (read_mem(rd, frame + L->fr_instr, &lasti, sizeof lasti) < 0)
            return -1;
        return lasti < 0 || lasti > (1 << 28) ? -1 : lasti * 2;
    }
    uintptr_t instr;
    int64_t units;
    if (read_ptr(rd, frame + L->fr_instr, &instr) < 0 ||
        read_mem(rd, code + L->co_size, &units, sizeof units) < 0)
        return -1;
    intptr_t off = (intptr_t)instr - (intptr_t)(code + L->co_code_adaptive);
    if (L->co_firsttraceable != NO_FIELD && owner != OWNED_BY_GENERATOR) {
        int32_t first;
        if (read_mem(rd, code + L->co_firsttraceable, &first, sizeof first) == 0 &&
            off < (intptr_t)first * 2)
            return -2;
    }
    if (off < 0 || units <= 0 || off >= units * 2)
        return -1;
    return (int32_t)off;
}

/* Whether the frame 'id' of 'table' is the program's own code rather than a library's
 * (ss_python_library_file). */
static int user_frame(const ss_py_table *table, uint32_t id)
{
    const ss_py_frame *f = ss_py_get(table, id);
    return f != NULL && !ss_python_library_file(ss_py_text(table, f->file));
}

/* The innermost frame of thread state 'ts' into '*frame' (0: none). Returns 0, or -1 when it
 * cannot be read. */
static inline __attribute__((always_inline)) int top_frame(const reader *rd, uintptr_t ts,
                                                           uintptr_t *frame)
{
    const py_layout *L = &py.layout;
    if (read_ptr(rd, ts + L->ts_frame, frame) < 0)
        return -1;
    if (L->cframe_current != NO_FIELD && *frame != 0 &&
        read_ptr(rd, *frame + L->cframe_current, frame) < 0)
        return -1;
    return 0;
}

/* The code object of 'frame', the frame that called it and its owner (0 where the layout has
 * none). Returns 0, or -1 when they cannot be read. */
static inline __attribute__((always_inline)) int
read_frame(const reader *rd, uintptr_t frame, uintptr_t *code, uintptr_t *previous, int *owner)
{
    const py_layout *L = &py.layout;
    if (read_ptr(rd, frame + L->fr_previous, previous) < 0 ||
        read_ptr(rd, frame + L->fr_code, code) < 0)
        return -1;
    *owner = 0;
    if (L->fr_owner != NO_FIELD) {
        uint8_t o;
        if (read_mem(rd, frame + L->fr_owner, &o, 1) < 0)
            return -1;
        *owner = o;
    }
    return 0;
}

/* Whether code object 'code' is a library's (ss_python_library_file, by its file): 1 or 0, or
 * -1 when its file cannot be read. */
static int library_code(const reader *rd, uintptr_t code)
{
    uintptr_t file_obj;
    char file[1024];
    if (read_ptr(rd, code + py.layout.co_filename, &file_obj) < 0 ||
        read_text(rd, file_obj, file, sizeof file) < 0)
        return -1;
    return ss_python_library_file(file) ? 1 : 0;
}

/* Walks the frames of thread state 'ts', innermost first, keeping at most 'max'. When none of
 * those is the program's own code (a call deep inside a library: model.to() recursing through
 * torch.nn's modules), the walk goes on to the first frame that is, and keeps it in place of
 * the last one: the finding needs that frame. Returns the number of ids written, or -1 when a
 * frame is not what the layout says (a wrong layout). */
static int walk(const reader *rd, ss_py_table *table, uintptr_t ts, uint32_t *ids, uint32_t max)
{
    const py_layout *L = &py.layout;
    uintptr_t frame;
    if (top_frame(rd, ts, &frame) < 0)
        return -1;
    uint32_t n = 0;
    int kept_user = 0;
    for (unsigned hops = 0; frame != 0 && hops < MAX_HOPS && (n < max || !kept_user); hops++) {
        uintptr_t code, current = frame;
        int owner;
        if (read_frame(rd, current, &code, &frame, &owner) < 0)
            return -1;
        /* The interpreter's entry frames (3.12+) are not Python code. */
        if (L->minor >= 12 && owner == OWNED_BY_CSTACK)
            continue;
        if (!has_type(rd, code, py.code_type)) {
            if (L->minor >= 13)
                continue; /* f_executable need not be a code object */
            return -1;
        }
        int32_t offset = frame_offset(rd, current, code, owner);
        if (offset == -2)
            continue;
        /* Past the depth, only the file decides: is this the program's own code? */
        int library = n == max ? library_code(rd, code) : 0;
        if (library != 0) {
            if (library < 0)
                return -1;
            continue;
        }
        uint32_t id = resolve(rd, table, code, offset);
        if (id == UINT32_MAX)
            return -1;
        if (id == 0)
            continue;
        if (n == max) {
            ids[max - 1] = id; /* the program's frame, in place of the outermost library one */
            break;
        }
        ids[n++] = id;
        kept_user |= user_frame(table, id);
    }
    return (int)n;
}

/* ---- finding the interpreter ---- */

/* Overrides 'L' with the offsets of the 3.13 interpreter's _Py_DebugOffsets. Returns 0, 1
 * when there are none to use, or -1 for a build whose objects syncscope cannot read. */
static int use_debug_offsets(py_layout *L)
{
    const unsigned char *runtime = dlsym(RTLD_DEFAULT, "_PyRuntime");
    if (runtime == NULL || memcmp(runtime, DBG_COOKIE, 8) != 0)
        return 1;
    uint64_t version, free_threaded;
    memcpy(&version, runtime + DBG_VERSION, 8);
    memcpy(&free_threaded, runtime + DBG_FREE_THREADED, 8);
    if ((version >> 16) != 0x030d)
        return 1;
    if (free_threaded != 0)
        return -1;
#define DBG(field, at)                                                                             \
    do {                                                                                           \
        uint64_t v;                                                                                \
        memcpy(&v, runtime + (at), 8);                                                             \
        if (v > 4096)                                                                              \
            return 1;                                                                              \
        (field) = (size_t)v;                                                                       \
    } while (0)
    py_layout d = *L;
    DBG(d.ts_frame, DBG_TS_CURRENT_FRAME);
    DBG(d.fr_previous, DBG_FR_PREVIOUS);
    DBG(d.fr_code, DBG_FR_EXECUTABLE);
    DBG(d.fr_instr, DBG_FR_INSTR_PTR);
    DBG(d.fr_owner, DBG_FR_OWNER);
    DBG(d.co_filename, DBG_CO_FILENAME);
    DBG(d.co_name, DBG_CO_QUALNAME);
    DBG(d.co_code_adaptive, DBG_CO_CODE_ADAPTIVE);
    DBG(d.ob_type, DBG_OB_TYPE);
    DBG(d.str_state, DBG_STR_STATE);
    DBG(d.str_length, DBG_STR_LENGTH);
    DBG(d.str_ascii_size, DBG_STR_ASCII_SIZE);
#undef DBG
    d.str_compact_size = d.str_ascii_size + 2 * sizeof(void *);
    /* _co_firsttraceable is not published: trust the table only where the code object
     * agrees with it. */
    if (d.co_code_adaptive != L->co_code_adaptive)
        d.co_firsttraceable = NO_FIELD;
    *L = d;
    return 0;
}

/* Marks the interpreter unreadable, with the line to print at the first capture. */
static void unreadable(const char *what)
{
    snprintf(py.why, sizeof py.why, "Python %s: %s; findings point at native frames", py.version,
             what);
    atomic_store(&py.state, PY_UNREADABLE);
}

/* The interpreter's version into '*major' and '*minor' (0 and 0 when unknown): Py_Version
 * (3.11+), else the text of Py_GetVersion. */
static void interpreter_version(int *major, int *minor)
{
    const unsigned long *hex = dlsym(RTLD_DEFAULT, "Py_Version"); /* 3.11+ */
    if (hex != NULL) {
        *major = (int)(*hex >> 24 & 0xff);
        *minor = (int)(*hex >> 16 & 0xff);
        return;
    }
    const char *(*get_version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "Py_GetVersion");
    const char *text = get_version != NULL ? get_version() : NULL;
    if (text == NULL || sscanf(text, "%d.%d", major, minor) != 2)
        *major = *minor = 0;
}

void ss_python_init(ss_python_say_fn say)
{
    py.say = say;
    if (atomic_load(&py.state) != PY_ABSENT)
        return;
    void *is_initialized = dlsym(RTLD_DEFAULT, "Py_IsInitialized");
    void *this_thread_state = dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
    void *addr2line = dlsym(RTLD_DEFAULT, "PyCode_Addr2Line");
    const void *code_type = dlsym(RTLD_DEFAULT, "PyCode_Type");
    const void *unicode_type = dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    const void *type_type = dlsym(RTLD_DEFAULT, "PyType_Type");
    if (is_initialized == NULL || this_thread_state == NULL || addr2line == NULL ||
        code_type == NULL || unicode_type == NULL || type_type == NULL)
        return; /* no CPython here */
    int major = 0, minor = 0;
    interpreter_version(&major, &minor);
    snprintf(py.version, sizeof py.version, "%d.%d", major, minor);
    py.code_type = code_type;
    py.unicode_type = unicode_type;
    py.is_initialized = (int (*)(void))is_initialized;
    py.this_thread_state = (void *(*)(void))this_thread_state;
    py.interpreter_head = (void *(*)(void))dlsym(RTLD_DEFAULT, "PyInterpreterState_Head");
    py.thread_head = (void *(*)(void *))dlsym(RTLD_DEFAULT, "PyInterpreterState_ThreadHead");
    py.addr2line = (int (*)(void *, int))addr2line;

    const py_layout *chosen = NULL;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        if (major == 3 && layouts[i].minor == minor)
            chosen = &layouts[i];
    }
    if (chosen == NULL) {
        unreadable("syncscope reads the frames of Python 3.10 to 3.13 only");
        return;
    }
    py.layout = *chosen;
    if (minor == 13 && use_debug_offsets(&py.layout) < 0) {
        unreadable("the frames of a free-threaded build cannot be read");
        return;
    }
    /* A type object's own type is PyType_Type: checks where ob_type is (a Py_TRACE_REFS
     * debug build moves it). */
    const void *meta = NULL;
    memcpy(&meta, (const char *)code_type + py.layout.ob_type, sizeof meta);
    if (meta != type_type) {
        unreadable("unexpected object layout (a debug build?)");
        return;
    }
    atomic_store(&py.checked_left, CHECKED_WALKS);
    atomic_store(&py.keys_checked_left, CHECKED_WALKS);
    atomic_store(&py.state, PY_READY);
}

const char *ss_python_version(void)
{
    return atomic_load(&py.state) == PY_READY ? py.version : "";
}

uint32_t ss_python_capture(ss_thread_store *thread, ss_budget *budget, uint32_t *ids, uint32_t max)
{
    int state = atomic_load_explicit(&py.state, memory_order_acquire);
    if (state == PY_UNREADABLE) {
        if (!atomic_exchange(&py.told, 1) && py.say != NULL)
            py.say("%s", py.why);
        return 0;
    }
    if (state != PY_READY || max == 0 || !py.is_initialized())
        return 0;
    /* The thread's own thread state, from CPython's thread-specific slot: whether or not
     * this thread holds the GIL now, and without taking it. */
    uintptr_t ts = (uintptr_t)py.this_thread_state();
    if (ts == 0)
        return 0;
    ss_py_table *table = ss_py_table_of(thread, budget);
    if (table == NULL)
        return 0;
    if (max > SS_PY_DEPTH_MAX)
        max = SS_PY_DEPTH_MAX;
    reader rd = {0, 0, 0};
    int checking = atomic_load_explicit(&py.checked_left, memory_order_relaxed) > 0;
    if (checking) {
        rd.checked = 1;
        rd.pid = getpid();
    }
    int n = walk(&rd, table, ts, ids, max);
    if (n < 0) {
        if (checking) {
            unreadable("its frames do not have the expected layout");
            if (!atomic_exchange(&py.told, 1) && py.say != NULL)
                py.say("%s", py.why);
        }
        return 0;
    }
    if (checking && n > 0)
        atomic_fetch_sub_explicit(&py.checked_left, 1, memory_order_relaxed);
    return (uint32_t)n;
}

/* What walk does with a frame: skips it (an entry frame, an incomplete one, an executable that
 * is no code object), or keeps it, the program's own code or a library's. */
enum { FRAME_SKIPPED, FRAME_LIBRARY, FRAME_USER };

/* code_kind's answer for a code object it has not remembered: reads its file ('rd' by value:
 * the reader of the inlined callers stays a constant there). */
static __attribute__((noinline)) int code_kind_read(reader rd, ss_site_code *entry, uintptr_t code,
                                                    uintptr_t file_obj)
{
    char file[1024];
    if (read_text(&rd, file_obj, file, sizeof file) < 0)
        return -1;
    *entry = (ss_site_code){code, file_obj, (uint32_t)ss_python_library_file(file)};
    return entry->library ? FRAME_LIBRARY : FRAME_USER;
}

/* Whether the file of code object 'code', whose file object is 'file_obj', is a library's
 * (library_code's answer), remembered in 'cache' by the two addresses. Returns FRAME_LIBRARY or
 * FRAME_USER, or -1 when the file cannot be read. */
static inline __attribute__((always_inline)) int code_kind(const reader *rd, ss_site_cache *cache,
                                                           uintptr_t code, uintptr_t file_obj)
{
    uint64_t h = ((uint64_t)code ^ (uint64_t)file_obj >> 4) * 0x9e3779b97f4a7c15ull;
    ss_site_code *entry = &cache->codes[h >> 56 & (SS_SITE_CODES - 1)];
    if (entry->code == code && entry->file == file_obj)
        return entry->library ? FRAME_LIBRARY : FRAME_USER;
    return code_kind_read(*rd, entry, code, file_obj);
}

/* Mixes the frame at 'frame' into 'key' as it is in memory: its code object and where in it
 * the frame is (the instruction pointer, or 3.10's f_lasti), its owner, and the code object's
 * file and name objects (what the frame table checks a code object by: ss_py_find). Sets
 * '*previous' to the frame that called it. Returns what walk does with it (FRAME_*), or -1
 * when it cannot be read or its code is not a code object where the layout says it must be
 * (walk's test). */
static inline __attribute__((always_inline)) int mix_frame(const reader *rd, ss_site_cache *cache,
                                                           uintptr_t frame, ss_site_key *key,
                                                           uintptr_t *previous)
{
    const py_layout *L = &py.layout;
    uintptr_t code, instr = 0, file_obj = 0, name_obj = 0;
    int owner;
    if (read_frame(rd, frame, &code, previous, &owner) < 0 ||
        read_mem(rd, frame + L->fr_instr, &instr,
                 L->frame_object ? sizeof(int32_t) : sizeof instr) < 0)
        return -1;
    int is_code = has_type(rd, code, py.code_type);
    if (is_code) {
        if (read_ptr(rd, code + L->co_filename, &file_obj) < 0 ||
            read_ptr(rd, code + L->co_name, &name_obj) < 0)
            return -1;
    } else if (L->minor < 12 || (L->minor == 12 && owner != OWNED_BY_CSTACK)) {
        return -1;
    }
    ss_site_key_mix(key, code);
    ss_site_key_mix(key, instr ^ (uint64_t)(unsigned)owner << 56);
    ss_site_key_mix(key, file_obj * 31 ^ name_obj);
    if ((L->minor >= 12 && owner == OWNED_BY_CSTACK) || !is_code ||
        frame_offset(rd, frame, code, owner) == -2)
        return FRAME_SKIPPED;
    return code_kind(rd, cache, code, file_obj);
}

/* Mixes the frames of thread state 'ts' that walk reads with 'max' into 'key' (walk's loop,
 * deciding as it does which frames it keeps). Returns how many, 0 when one cannot be read.
 * Inlined with everything it reads through: a reader whose fields are constants there reads
 * each word with one load and two comparisons. */
static inline __attribute__((always_inline)) uint32_t
mix_frames(const reader *rd, ss_site_cache *cache, uintptr_t ts, ss_site_key *key, uint32_t max)
{
    uintptr_t frame;
    if (top_frame(rd, ts, &frame) < 0)
        return 0;
    uint32_t hops = 0, kept = 0;
    int kept_user = 0;
    while (frame != 0 && hops < MAX_HOPS && (kept < max || !kept_user)) {
        int what = mix_frame(rd, cache, frame, key, &frame);
        hops++;
        if (what < 0)
            return 0;
        if (what == FRAME_SKIPPED || (kept == max && what == FRAME_LIBRARY))
            continue;
        if (kept == max)
            break; /* the program's frame past the depth, which walk keeps and stops at */
        kept++;
        kept_user |= what == FRAME_USER;
    }
    return hops;
}

uint32_t ss_python_site_key(ss_site_key *key, ss_site_cache *cache, uint32_t max)
{
    if (atomic_load_explicit(&py.state, memory_order_acquire) != PY_READY || max == 0 ||
        !py.is_initialized())
        return 0;
    if (max > SS_PY_DEPTH_MAX)
        max = SS_PY_DEPTH_MAX;
    uintptr_t ts = (uintptr_t)py.this_thread_state();
    /* The first keys read through process_vm_readv, as the first captures do: each one whose
     * frames all held code objects where the layout says confirms the frame chain's offsets. */
    int checking = atomic_load_explicit(&py.keys_checked_left, memory_order_relaxed) > 0;
    int saved_errno = errno; /* a failed checked read sets it */
    uint32_t n = 0;
    if (ts != 0 && checking) {
        const reader checked = {1, 0, getpid()};
        n = mix_frames(&checked, cache, ts, key, max);
    } else if (ts != 0) {
        const reader direct = {0, 0, 0};
        n = mix_frames(&direct, cache, ts, key, max);
    }
    errno = saved_errno;
    if (checking && n > 0)
        atomic_fetch_sub_explicit(&py.keys_checked_left, 1, memory_order_relaxed);
    ss_site_key_mix(key, n);
    return n;
}

/* ---- the stack of another thread ---- */

/* Where thread state 'ts' is: its innermost frame and that frame's instruction, into 'at'.
 * Returns 0, or -1 when they cannot be read. */
static int position(const reader *rd, uintptr_t ts, uintptr_t at[2])
{
    const py_layout *L = &py.layout;
    uintptr_t frame;
    at[0] = at[1] = 0;
    if (read_ptr(rd, ts + L->ts_frame, &frame) < 0)
        return -1;
    if (L->cframe_current != NO_FIELD && frame != 0 &&
        read_ptr(rd, frame + L->cframe_current, &frame) < 0)
        return -1;
    at[0] = frame;
    if (frame != 0 && read_mem(rd, frame + L->fr_instr, &at[1],
                               L->frame_object ? sizeof(int32_t) : sizeof at[1]) < 0)
        return -1;
    return 0;
}

/* Whether every frame of 'ts' can be read as the layout says, without resolving any. */
static int frames_readable(const reader *rd, uintptr_t ts)
{
    const py_layout *L = &py.layout;
    uintptr_t at[2];
    if (position(rd, ts, at) < 0 || at[0] == 0)
        return 0;
    uintptr_t frame = at[0];
    for (unsigned hops = 0; frame != 0 && hops < MAX_HOPS; hops++) {
        uintptr_t code, previous;
        if (read_ptr(rd, frame + L->fr_previous, &previous) < 0 ||
            read_ptr(rd, frame + L->fr_code, &code) < 0)
            return 0;
        if (L->minor < 13 && !has_type(rd, code, py.code_type)) {
            uint8_t owner = 0;
            if (L->fr_owner == NO_FIELD || read_mem(rd, frame + L->fr_owner, &owner, 1) < 0 ||
                L->minor < 12 || owner != OWNED_BY_CSTACK)
                return 0;
        }
        frame = previous;
    }
    return 1;
}

/* The frames of the other thread state 'ts' into 'ids' (at most 'max'), when that thread stood
 * still while they were read (the same innermost frame and instruction before the walk, in
 * between and after it: a thread waiting outside the interpreter, or for the GIL) and one of
 * them is the program's own code. A thread that runs meanwhile may pop frames whose code
 * objects then go (only PyCode_Addr2Line reads one directly): the looks keep that window to
 * the walk itself, and a thread that runs is rarely kept. Returns the number written, or 0. */
static uint32_t walk_other(const reader *rd, ss_py_table *table, uintptr_t ts, uint32_t *ids,
                           uint32_t max)
{
    uintptr_t before[2], at[2];
    if (position(rd, ts, before) < 0 || before[0] == 0 || !frames_readable(rd, ts) ||
        position(rd, ts, at) < 0 || at[0] != before[0] || at[1] != before[1])
        return 0;
    int n = walk(rd, table, ts, ids, max);
    /* A running thread passes each look with the odds of being at the same instruction
     * again; four looks make those odds small, and the frames are read all the same. */
    if (n <= 0 || position(rd, ts, at) < 0 || at[0] != before[0] || at[1] != before[1] ||
        !frames_readable(rd, ts) || position(rd, ts, at) < 0 || at[0] != before[0] ||
        at[1] != before[1])
        return 0;
    for (int i = 0; i < n; i++) {
        if (user_frame(table, ids[i]))
            return (uint32_t)n;
    }
    return 0;
}

uint32_t ss_python_capture_other(ss_thread_store *thread, ss_budget *budget, uint32_t *ids,
                                 uint32_t max)
{
    if (atomic_load_explicit(&py.state, memory_order_acquire) != PY_READY || max == 0 || py.no_vm ||
        py.interpreter_head == NULL || py.thread_head == NULL || !py.is_initialized())
        return 0;
    void *interp = py.interpreter_head();
    if (interp == NULL)
        return 0;
    ss_py_table *table = ss_py_table_of(thread, budget);
    if (table == NULL)
        return 0;
    if (max > SS_PY_DEPTH_MAX)
        max = SS_PY_DEPTH_MAX;
    /* Every read is checked: the other threads go on running, and a thread state may be freed
     * while it is read. */
    int saved_errno = errno; /* a failed read sets it; the program's must not change */
    reader rd = {1, 1, getpid()};
    uintptr_t own = (uintptr_t)py.this_thread_state();
    uintptr_t ts = (uintptr_t)py.thread_head(interp);
    /* The list runs from the newest thread state to the oldest; the oldest that qualifies,
     * the program's main thread where it does, is wanted: the list is read first, then the
     * threads are walked from its end, and the first that qualifies ends the search. */
    uintptr_t states[MAX_THREADS];
    unsigned count = 0;
    while (ts != 0 && count < MAX_THREADS) {
        states[count++] = ts;
        if (read_ptr(&rd, ts + TS_NEXT, &ts) < 0)
            break;
    }
    uint32_t n = 0;
    for (unsigned k = count; k > 0 && n == 0; k--) {
        if (states[k - 1] != own)
            n = walk_other(&rd, table, states[k - 1], ids, max);
    }
    errno = saved_errno;
    return n;
}
