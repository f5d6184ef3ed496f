/* symbolize.c: native addresses to symbols, inlined calls and source lines (libdw), with a
 * symbol index per module and the persistent cache of symcache.c. */
#include "symbolize.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifdef SS_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#endif

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#ifndef SS_HAVE_LIBDW

ss_symbolizer *ss_sym_open_process(int pid, const ss_sym_options *options)
{
    (void)pid;
    (void)options;
    return NULL;
}

ss_symbolizer *ss_sym_open_files(const char *const *paths, const uint64_t *biases, size_t count,
                                 const ss_sym_options *options)
{
    (void)paths;
    (void)biases;
    (void)count;
    (void)options;
    return NULL;
}

int ss_sym_module(ss_symbolizer *s, uint64_t pc, const char **path, uint64_t *bias)
{
    (void)s;
    (void)pc;
    (void)path;
    (void)bias;
    return -1;
}

int ss_sym_resolve(ss_symbolizer *s, uint64_t pc, int inlines, ss_symcache_entry *out)
{
    (void)s;
    (void)inlines;
    memset(out, 0, sizeof *out);
    out->offset = pc;
    out->nframes = 1;
    return -1;
}

int ss_sym_save(ss_symbolizer *s)
{
    (void)s;
    return 0;
}

const ss_sym_stats *ss_sym_stats_get(const ss_symbolizer *s)
{
    (void)s;
    static const ss_sym_stats none;
    return &none;
}

void ss_sym_close(ss_symbolizer *s)
{
    (void)s;
}

#else

/* ---- the symbol index ----
 *
 * libdw's dwfl_module_addrname scans the module's whole symbol table for every address (about
 * 8 ms per address in libLLVM's 48,000 symbols), which is where the exit time of a PyTorch
 * process went. The index reads the table once, in the same order and through the same call
 * as that scan (dwfl_module_getsym_info), and answers each address with a binary search, with
 * exactly the choice the scan makes (elfutils 0.188, libdwfl/dwfl_module_addrsym.c):
 *   - the symbols it considers: named, defined, not a section, file or TLS symbol, at or below
 *     the address; the global ones first (indexes first_global ... count - 1), the local ones
 *     (1 ... first_global - 1) only when no sized global symbol holds the address and no
 *     sizeless one in its section sits exactly at it;
 *   - among the sized symbols that hold the address, taken in table order, a later one
 *     replaces the one kept when it starts higher or binds more strongly (global over weak
 *     over local), or starts at the same place and is shorter without binding more weakly;
 *   - with none, the last sizeless symbol (in scan order) in the address's section whose
 *     value is at or above the end of every symbol considered below the address.
 * A module whose symbol values libdw resolves differently (function descriptors, ET_REL
 * files) keeps libdw's own lookup. */

typedef struct index_sym {
    uint64_t value; /* run-time address */
    uint64_t size;
    uint64_t wend;  /* value + size as libdw computes it (it may wrap) */
    uint64_t reach; /* value + size, saturated: how far the symbol covers */
    const char *name;
    int32_t index;      /* position in libdw's table: the scan order */
    uint8_t bind;       /* 3 global, 2 weak, 1 local, 0 other */
    uint8_t exact_only; /* section index >= SHN_LORESERVE: same section only at its value */
} index_sym;

/* The symbols of one scan pass, by value, with the running maximum of their ends. */
typedef struct pass_ends {
    uint64_t *values;
    uint64_t *max_wend;
    size_t count;
} pass_ends;

/* A section of the module's file, for "the address's section" (libdw's find_section). */
typedef struct section {
    uint64_t start, end;
    size_t ndx;
} section;

typedef enum index_state {
    INDEX_NONE = 0,   /* not built yet */
    INDEX_READY = 1,  /* built */
    INDEX_EMPTY = 2,  /* no symbol table: no address has a symbol */
    INDEX_LIBDW = -1, /* values libdw resolves: its own lookup */
} index_state;

typedef struct sym_index {
    index_state state;
    int count;        /* libdw's table size (dwfl_module_getsymtab) */
    int first_global; /* dwfl_module_getsymtab_first_global */
    index_sym *sized; /* sized symbols by value, with the running maximum of 'reach' */
    uint64_t *sized_reach;
    size_t nsized;
    index_sym *sizeless; /* sizeless symbols by value */
    size_t nsizeless;
    pass_ends pass[2];  /* [0] global pass, [1] local pass */
    int sections_state; /* 0 not read, 1 read, -1 unreadable (libdw: no section known) */
    section *sections;
    size_t nsections;
} sym_index;

typedef struct sym_module {
    Dwfl_Module *mod;
    const char *path;
    uint64_t bias;
    int has_bias;
    int counted;     /* counted in stats.modules */
    int cache_state; /* 0 not looked at, 1 table usable, -1 not cached */
    ss_symcache_table cache;
    sym_index index;
    struct sym_module *next;
} sym_module;

struct ss_symbolizer {
    Dwfl *dwfl;
    ss_sym_options options;
    char *cache_dir;
    sym_module *modules; /* newest first */
    ss_sym_stats stats;
};

static int binding_value(unsigned char info)
{
    switch (GELF_ST_BIND(info)) {
    case STB_GLOBAL:
        return 3;
    case STB_WEAK:
        return 2;
    case STB_LOCAL:
        return 1;
    default:
        return 0;
    }
}

static int by_value(const void *a, const void *b)
{
    const index_sym *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int by_index(const void *a, const void *b)
{
    const index_sym *x = *(const index_sym *const *)a, *y = *(const index_sym *const *)b;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void index_free(sym_index *idx)
{
    free(idx->sized);
    free(idx->sized_reach);
    free(idx->sizeless);
    for (int p = 0; p < 2; p++) {
        free(idx->pass[p].values);
        free(idx->pass[p].max_wend);
    }
    free(idx->sections);
    memset(idx, 0, sizeof *idx);
}

/* The pass (0 global, 1 local) that scans table position 'index'. */
static int pass_of(const sym_index *idx, int32_t index)
{
    return index >= (idx->first_global > 1 ? idx->first_global : 1) ? 0 : 1;
}

/* Builds 'idx' for 'mod'. Leaves the state INDEX_READY, INDEX_EMPTY or INDEX_LIBDW; -1 only
 * when out of memory (the caller then uses libdw's lookup). */
static int index_build(sym_index *idx, Dwfl_Module *mod)
{
    memset(idx, 0, sizeof *idx);
    idx->count = dwfl_module_getsymtab(mod);
    idx->first_global = idx->count >= 0 ? dwfl_module_getsymtab_first_global(mod) : -1;
    if (idx->count < 0 || idx->first_global < 0) {
        idx->state = INDEX_EMPTY;
        return 0;
    }
    Dwarf_Addr main_bias;
    Elf *main = dwfl_module_getelf(mod, &main_bias);
    GElf_Ehdr ehdr_mem, *ehdr = main != NULL ? gelf_getehdr(main, &ehdr_mem) : NULL;
    if (ehdr == NULL || ehdr->e_type == ET_REL) {
        idx->state = INDEX_LIBDW;
        return 0;
    }
    size_t cap = idx->count > 1 ? (size_t)idx->count : 1;
    index_sym *all = malloc(cap * sizeof *all);
    if (all == NULL)
        return -1;
    size_t n = 0;
    for (int i = 1; i < idx->count; i++) {
        GElf_Sym sym;
        GElf_Addr value;
        GElf_Word shndx;
        Elf *elf;
        Dwarf_Addr bias;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &value, &shndx, &elf, &bias);
        int type = GELF_ST_TYPE(sym.st_info);
        if (name == NULL || name[0] == '\0' || sym.st_shndx == SHN_UNDEF || type == STT_SECTION ||
            type == STT_FILE || type == STT_TLS)
            continue;
        /* libdw adds the bias to a value in an allocated section, else keeps it; any other
         * value is one it resolved (a function descriptor), which its lookup also tries
         * unresolved: not modelled here. */
        uint64_t expected = sym.st_value;
        if (sym.st_shndx != SHN_ABS && sym.st_shndx != SHN_COMMON && shndx != (GElf_Word)-1)
            expected += bias;
        if (value != expected) {
            free(all);
            idx->state = INDEX_LIBDW;
            return 0;
        }
        index_sym *e = &all[n++];
        e->value = value;
        e->size = sym.st_size;
        e->wend = value + sym.st_size;
        e->reach = e->wend < value ? UINT64_MAX : e->wend;
        e->name = name;
        e->index = i;
        e->bind = (uint8_t)binding_value(sym.st_info);
        e->exact_only = shndx >= SHN_LORESERVE;
    }
    qsort(all, n, sizeof *all, by_value);
    size_t nsized = 0;
    for (size_t i = 0; i < n; i++)
        nsized += all[i].size != 0;
    idx->sized = malloc((nsized ? nsized : 1) * sizeof *idx->sized);
    idx->sized_reach = malloc((nsized ? nsized : 1) * sizeof *idx->sized_reach);
    idx->sizeless = malloc((n - nsized ? n - nsized : 1) * sizeof *idx->sizeless);
    size_t per_pass[2] = {0, 0};
    for (size_t i = 0; i < n; i++)
        per_pass[pass_of(idx, all[i].index)]++;
    for (int p = 0; p < 2; p++) {
        idx->pass[p].values = malloc((per_pass[p] ? per_pass[p] : 1) * sizeof(uint64_t));
        idx->pass[p].max_wend = malloc((per_pass[p] ? per_pass[p] : 1) * sizeof(uint64_t));
    }
    if (idx->sized == NULL || idx->sized_reach == NULL || idx->sizeless == NULL ||
        idx->pass[0].values == NULL || idx->pass[0].max_wend == NULL ||
        idx->pass[1].values == NULL || idx->pass[1].max_wend == NULL) {
        free(all);
        index_free(idx);
        return -1;
    }
    uint64_t reach = 0;
    for (size_t i = 0; i < n; i++) {
        const index_sym *e = &all[i];
        if (e->size != 0) {
            if (e->reach > reach)
                reach = e->reach;
            idx->sized_reach[idx->nsized] = reach;
            idx->sized[idx->nsized++] = *e;
        } else {
            idx->sizeless[idx->nsizeless++] = *e;
        }
        pass_ends *p = &idx->pass[pass_of(idx, e->index)];
        uint64_t before = p->count > 0 ? p->max_wend[p->count - 1] : 0;
        p->values[p->count] = e->value;
        p->max_wend[p->count] = e->wend > before ? e->wend : before;
        p->count++;
    }
    free(all);
    idx->state = INDEX_READY;
    return 0;
}

/* How many of the 'count' sorted 'values' are at or below 'addr'. */
static size_t count_at_or_below(const uint64_t *values, size_t count, uint64_t addr)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (values[mid] <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t syms_at_or_below(const index_sym *syms, size_t count, uint64_t addr)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (syms[mid].value <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int by_section(const void *a, const void *b)
{
    const section *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->ndx < y->ndx ? -1 : x->ndx > y->ndx;
}

/* The allocated sections of the module's file by address, as libdw's find_section sorts
 * them. */
static void read_sections(sym_index *idx, Dwfl_Module *mod)
{
    idx->sections_state = -1;
    Dwarf_Addr bias;
    Elf *elf = dwfl_module_getelf(mod, &bias);
    size_t shstrndx;
    if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) < 0)
        return;
    size_t cap = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr shdr_mem, *shdr = gelf_getshdr(scn, &shdr_mem);
        if (shdr == NULL)
            goto unreadable;
        if (!(shdr->sh_flags & SHF_ALLOC))
            continue;
        if (elf_strptr(elf, shstrndx, shdr->sh_name) == NULL)
            goto unreadable;
        if (idx->nsections == cap) {
            cap = cap ? cap * 2 : 32;
            section *grown = realloc(idx->sections, cap * sizeof *grown);
            if (grown == NULL)
                goto unreadable;
            idx->sections = grown;
        }
        section *s = &idx->sections[idx->nsections++];
        s->start = shdr->sh_addr + bias;
        s->end = s->start + shdr->sh_size;
        s->ndx = elf_ndxscn(scn);
    }
    if (idx->nsections > 1)
        qsort(idx->sections, idx->nsections, sizeof *idx->sections, by_section);
    idx->sections_state = 1;
    return;
unreadable:
    free(idx->sections);
    idx->sections = NULL;
    idx->nsections = 0;
}

/* The index of the section holding 'addr' (its end included, unless the next section starts
 * there), 0 (SHN_UNDEF) for none, as libdw's __libdwfl_find_section_ndx. */
static size_t section_of(sym_index *idx, Dwfl_Module *mod, uint64_t addr)
{
    if (idx->sections_state == 0)
        read_sections(idx, mod);
    size_t lo = 0, hi = idx->sections_state == 1 ? idx->nsections : 0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const section *s = &idx->sections[mid];
        if (addr < s->start) {
            hi = mid;
        } else if (addr > s->end) {
            lo = mid + 1;
        } else {
            if (addr == s->end && mid + 1 < idx->nsections && addr == idx->sections[mid + 1].start)
                mid++;
            return idx->sections[mid].ndx;
        }
    }
    return 0;
}

/* Whether a sizeless symbol counts as in the section of 'addr' (libdw's same_section, as
 * dwfl_module_addrinfo uses it). */
static int same_section(sym_index *idx, Dwfl_Module *mod, const index_sym *sym, uint64_t addr)
{
    if (sym->exact_only)
        return sym->value == addr;
    return section_of(idx, mod, addr) == section_of(idx, mod, sym->value);
}

/* The sized symbol the scan keeps among 'cands' ('count' sized symbols that hold the address,
 * in table order), or NULL. */
static const index_sym *fold_sized(const index_sym *const *cands, size_t count)
{
    const index_sym *best = NULL;
    for (size_t i = 0; i < count; i++) {
        const index_sym *s = cands[i];
        if (best == NULL || best->value < s->value || best->bind < s->bind)
            best = s;
        else if (best->value == s->value && ((best->size > s->size && best->bind <= s->bind) ||
                                             (best->size >= s->size && best->bind < s->bind)))
            best = s;
    }
    return best;
}

/* The largest end of the symbols of pass 'p' at or below 'addr' (0 for none). */
static uint64_t pass_max_end(const pass_ends *p, uint64_t addr)
{
    size_t n = count_at_or_below(p->values, p->count, addr);
    return n > 0 ? p->max_wend[n - 1] : 0;
}

/* The symbol the scan would name for 'addr'; NULL for none. 'scratch' holds 'scratch_cap'
 * pointers; returns (void *)-1 when the sized symbols holding 'addr' are more than that. */
static const char *index_lookup(sym_index *idx, Dwfl_Module *mod, uint64_t addr,
                                const index_sym **scratch, size_t scratch_cap)
{
    /* Sized symbols holding addr: walk down from the last one starting at or below it while
     * some symbol at or before the position still reaches past it. */
    size_t held[2] = {0, 0};
    size_t n = 0;
    for (size_t k = syms_at_or_below(idx->sized, idx->nsized, addr);
         k > 0 && idx->sized_reach[k - 1] > addr; k--) {
        const index_sym *s = &idx->sized[k - 1];
        if (addr - s->value < s->size) {
            if (n == scratch_cap)
                return (const char *)(void *)-1;
            scratch[n++] = s;
            held[pass_of(idx, s->index)]++;
        }
    }
    if (n > 1)
        qsort(scratch, n, sizeof *scratch, by_index);
    /* In table order the global pass's symbols come last (higher positions). */
    const index_sym *best = fold_sized(scratch + held[1], held[0]);
    if (best != NULL)
        return best->name;
    /* A global sizeless symbol exactly at addr stops the local pass (at its own value a symbol
     * is always in addr's section). */
    size_t at = syms_at_or_below(idx->sizeless, idx->nsizeless, addr);
    int local_pass = idx->first_global > 1;
    for (size_t k = at; k > 0 && local_pass && idx->sizeless[k - 1].value == addr; k--) {
        if (pass_of(idx, idx->sizeless[k - 1].index) == 0)
            local_pass = 0;
    }
    if (local_pass) {
        best = fold_sized(scratch, held[1]);
        if (best != NULL)
            return best->name;
    }
    /* No sized symbol: the last sizeless one in scan order, in addr's section, sitting at the
     * largest end of all the symbols scanned below addr. */
    uint64_t label = pass_max_end(&idx->pass[0], addr);
    if (local_pass) {
        uint64_t local = pass_max_end(&idx->pass[1], addr);
        if (local > label)
            label = local;
    }
    const index_sym *last[2] = {NULL, NULL};
    for (size_t k = at; k > 0 && idx->sizeless[k - 1].value >= label; k--) {
        const index_sym *s = &idx->sizeless[k - 1];
        int p = pass_of(idx, s->index);
        if (s->value != label || (p == 1 && !local_pass) || !same_section(idx, mod, s, addr))
            continue;
        if (last[p] == NULL || s->index > last[p]->index)
            last[p] = s;
    }
    const index_sym *chosen = last[1] != NULL ? last[1] : last[0];
    return chosen != NULL ? chosen->name : NULL;
}

/* ---- modules ---- */

static const Dwfl_Callbacks process_callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static const Dwfl_Callbacks file_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

static ss_symbolizer *symbolizer_new(const Dwfl_Callbacks *callbacks, const ss_sym_options *options)
{
    ss_symbolizer *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    if (options != NULL)
        s->options = *options;
    if (s->options.cache_dir != NULL && s->options.cache_dir[0] != '\0') {
        s->cache_dir = strdup(s->options.cache_dir);
        if (s->cache_dir == NULL) {
            free(s);
            return NULL;
        }
    }
    s->options.cache_dir = s->cache_dir;
    s->dwfl = dwfl_begin(callbacks);
    if (s->dwfl == NULL) {
        free(s->cache_dir);
        free(s);
        return NULL;
    }
    dwfl_report_begin(s->dwfl);
    return s;
}

ss_symbolizer *ss_sym_open_process(int pid, const ss_sym_options *options)
{
    uint64_t start = now_ns();
    ss_symbolizer *s = symbolizer_new(&process_callbacks, options);
    if (s == NULL)
        return NULL;
    if (dwfl_linux_proc_report(s->dwfl, pid) != 0 || dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
        ss_sym_close(s);
        return NULL;
    }
    s->stats.report_ns += now_ns() - start;
    return s;
}

ss_symbolizer *ss_sym_open_files(const char *const *paths, const uint64_t *biases, size_t count,
                                 const ss_sym_options *options)
{
    uint64_t start = now_ns();
    ss_symbolizer *s = symbolizer_new(&file_callbacks, options);
    if (s == NULL)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        if (dwfl_report_elf(s->dwfl, paths[i], paths[i], -1, biases[i], true) == NULL) {
            ss_sym_close(s);
            return NULL;
        }
    }
    if (dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
        ss_sym_close(s);
        return NULL;
    }
    s->stats.report_ns += now_ns() - start;
    return s;
}

/* The record of the module holding 'addr' (made at its first address), or NULL. */
static sym_module *module_at(ss_symbolizer *s, Dwarf_Addr addr)
{
    Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, addr);
    if (mod == NULL)
        return NULL;
    void **userdata = NULL;
    const char *mainfile = NULL;
    const char *name = dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, &mainfile, NULL);
    if (userdata != NULL && *userdata != NULL)
        return *userdata;
    sym_module *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->mod = mod;
    /* The file as libdw knew it before opening it: the name /proc/PID/maps gives. */
    m->path = mainfile != NULL ? mainfile : name;
    Dwarf_Addr bias = 0;
    if (dwfl_module_getelf(mod, &bias) != NULL) {
        m->bias = bias;
        m->has_bias = 1;
    }
    m->next = s->modules;
    s->modules = m;
    if (userdata != NULL)
        *userdata = m;
    return m;
}

int ss_sym_module(ss_symbolizer *s, uint64_t pc, const char **path, uint64_t *bias)
{
    if (s == NULL)
        return -1;
    uint64_t start = now_ns();
    sym_module *m = module_at(s, pc > 0 ? pc - 1 : pc);
    s->stats.open_ns += now_ns() - start;
    if (m == NULL || m->path == NULL)
        return -1;
    *path = m->path;
    *bias = m->bias;
    return m->has_bias;
}

/* The module's table in the persistent cache, read at its first use; NULL when the module is
 * not cached (no cache, no ELF file or no build-id). */
static ss_symcache_table *module_cache(ss_symbolizer *s, sym_module *m)
{
    if (m->cache_state == 0) {
        m->cache_state = -1;
        const unsigned char *id = NULL;
        GElf_Addr vaddr;
        int len =
            s->cache_dir != NULL && m->has_bias ? dwfl_module_build_id(m->mod, &id, &vaddr) : 0;
        if (len > 0 && ss_symcache_init(&m->cache, id, (size_t)len) == 0) {
            uint64_t start = now_ns();
            if (ss_symcache_load(s->cache_dir, &m->cache) > 0)
                s->stats.cache_read++;
            s->stats.cache_ns += now_ns() - start;
            m->cache_state = 1;
        }
    }
    return m->cache_state == 1 ? &m->cache : NULL;
}

/* The name of a subprogram or inlined-subroutine DIE (following its abstract origin). */
static const char *die_function_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name = NULL;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) != NULL ||
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr) != NULL)
        name = dwarf_formstring(&attr);
    if (name == NULL && dwarf_attr_integrate(die, DW_AT_name, &attr) != NULL)
        name = dwarf_formstring(&attr);
    return name;
}

/* The functions inlined at 'addr' as frames of their own: frames[k].function is the name of
 * the k-th subprogram or inlined-subroutine scope (innermost first), and each inlined
 * subroutine's DW_AT_call_file/call_line is the place of frames[k + 1] in the function around
 * it, so that a call written in main() through an inline template of a CUDA header
 * (cudaMalloc<T>, a <<<>>> launch stub) shows main()'s own line. frames[0].file/line already
 * hold the line table's place. */
static void expand_inlines(Dwfl_Module *mod, Dwarf_Addr addr, ss_symcache_entry *e)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cudie = dwfl_module_addrdie(mod, addr, &bias);
    if (cudie == NULL)
        return;
    Dwarf_Die *scopes = NULL;
    int nscopes = dwarf_getscopes(cudie, addr - bias, &scopes);
    if (nscopes <= 0)
        return;
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (dwarf_getsrcfiles(cudie, &files, &nfiles) != 0)
        files = NULL;
    uint32_t n = 0; /* frames filled so far; frames[n] is the one being named */
    for (int i = 0; i < nscopes && n < SS_SYM_INLINE_DEPTH; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
            continue;
        const char *name = die_function_name(&scopes[i]);
        if (name != NULL)
            e->frames[n].function = name;
        if (tag == DW_TAG_subprogram)
            break;
        Dwarf_Attribute attr;
        Dwarf_Word call_file = 0, call_line = 0;
        if (n + 1 >= SS_SYM_INLINE_DEPTH ||
            dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &call_file) != 0 ||
            dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &call_line) != 0)
            break;
        ss_symcache_frame *outer = &e->frames[n + 1];
        outer->function = NULL;
        outer->line = (uint32_t)call_line;
        outer->file = files != NULL && call_file < nfiles
                          ? dwarf_filesrc(files, call_file, NULL, NULL)
                          : NULL;
        n++;
    }
    e->nframes = (uint8_t)(n + 1);
    free(scopes);
}

/* The symbol table's name of 'addr' in module 'm': through the index, or libdw's scan. */
static const char *symbol_of(ss_symbolizer *s, sym_module *m, Dwarf_Addr addr)
{
    sym_index *idx = &m->index;
    if (!s->options.linear && idx->state == INDEX_NONE) {
        uint64_t start = now_ns();
        if (index_build(idx, m->mod) < 0)
            idx->state = INDEX_LIBDW;
        s->stats.symbols += idx->nsized + idx->nsizeless;
        s->stats.index_ns += now_ns() - start;
    }
    uint64_t start = now_ns();
    const char *name;
    if (s->options.linear || idx->state == INDEX_LIBDW) {
        name = dwfl_module_addrname(m->mod, addr);
    } else if (idx->state == INDEX_EMPTY) {
        name = NULL;
    } else {
        const index_sym *scratch[64];
        name = index_lookup(idx, m->mod, addr, scratch, sizeof scratch / sizeof scratch[0]);
        if (name == (const char *)(void *)-1) /* more overlapping symbols than the scratch */
            name = dwfl_module_addrname(m->mod, addr);
    }
    s->stats.symbol_ns += now_ns() - start;
    return name;
}

int ss_sym_resolve(ss_symbolizer *s, uint64_t pc, int inlines, ss_symcache_entry *out)
{
    memset(out, 0, sizeof *out);
    out->nframes = 1;
    if (s == NULL)
        return -1;
    /* A return address: the call is the instruction before it. */
    Dwarf_Addr addr = pc > 0 ? pc - 1 : pc;
    uint64_t start = now_ns();
    sym_module *m = module_at(s, addr);
    s->stats.open_ns += now_ns() - start;
    if (m == NULL)
        return -1;
    if (!m->counted) {
        m->counted = 1;
        s->stats.modules++;
    }
    out->offset = pc - m->bias;
    ss_symcache_table *cache = module_cache(s, m);
    if (cache != NULL) {
        const ss_symcache_entry *hit = ss_symcache_find(cache, out->offset);
        if (hit != NULL && (hit->expanded || !inlines)) {
            s->stats.cache_hits++;
            *out = *hit;
            if (!inlines && hit->expanded) {
                /* The line table's place alone, as without DWARF scopes. */
                ss_symcache_frame first = {NULL, hit->frames[0].file, hit->frames[0].line};
                memset(out->frames, 0, sizeof out->frames);
                out->frames[0] = first;
                out->nframes = 1;
                out->expanded = 0;
            }
            return 0;
        }
    }
    s->stats.resolved++;
    out->symbol = symbol_of(s, m, addr);
    start = now_ns();
    Dwfl_Line *line = dwfl_module_getsrc(m->mod, addr);
    if (line != NULL) {
        int lineno = 0;
        const char *file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
        if (file != NULL && lineno > 0) {
            out->frames[0].file = file;
            out->frames[0].line = (uint32_t)lineno;
        }
    }
    uint64_t lines_done = now_ns();
    s->stats.line_ns += lines_done - start;
    if (inlines) {
        expand_inlines(m->mod, addr, out);
        out->expanded = 1;
        s->stats.inline_ns += now_ns() - lines_done;
    }
    if (cache != NULL)
        ss_symcache_add(cache, out);
    return 0;
}

/* The debug information libdw read for module 'm' (a separate file, or none). */
static void debug_of(sym_module *m, ss_symcache_debug *debug)
{
    memset(debug, 0, sizeof *debug);
    const char *mainfile = NULL, *debugfile = NULL;
    dwfl_module_info(m->mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
    struct stat st;
    if (debugfile == NULL || (mainfile != NULL && strcmp(debugfile, mainfile) == 0) ||
        strlen(debugfile) >= sizeof debug->path || stat(debugfile, &st) != 0)
        return;
    memcpy(debug->path, debugfile, strlen(debugfile) + 1);
    debug->size = (uint64_t)st.st_size;
    debug->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

int ss_sym_save(ss_symbolizer *s)
{
    if (s == NULL || s->cache_dir == NULL)
        return 0;
    uint64_t start = now_ns();
    int written = 0, failed = 0;
    for (sym_module *m = s->modules; m != NULL; m = m->next) {
        if (m->cache_state != 1)
            continue;
        ss_symcache_debug debug;
        debug_of(m, &debug);
        int rc = ss_symcache_save(s->cache_dir, &m->cache, &debug);
        if (rc > 0)
            written++;
        else if (rc < 0)
            failed = 1;
    }
    if (written > 0)
        ss_symcache_prune(s->cache_dir, SS_SYMCACHE_FOLDER_MAX);
    s->stats.cache_written += (size_t)written;
    s->stats.cache_ns += now_ns() - start;
    return failed ? -1 : written;
}

const ss_sym_stats *ss_sym_stats_get(const ss_symbolizer *s)
{
    static const ss_sym_stats none;
    return s != NULL ? &s->stats : &none;
}

void ss_sym_close(ss_symbolizer *s)
{
    if (s == NULL)
        return;
    for (sym_module *m = s->modules, *next; m != NULL; m = next) {
        next = m->next;
        index_free(&m->index);
        if (m->cache_state == 1)
            ss_symcache_free(&m->cache);
        free(m);
    }
    dwfl_end(s->dwfl);
    free(s->cache_dir);
    free(s);
}

#endif
