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
 *     sizeless one sits exactly at it;
 *   - among the sized symbols that hold the address, taken in table order, a later one
 *     replaces the one kept when it starts higher or binds more strongly (global over weak
 *     over local), or starts at the same place and is shorter without binding more weakly;
 *   - with none, the last sizeless symbol (in scan order) in the address's section whose
 *     value is at or above the end of every symbol considered below the address.
 * Names are read only for the symbols that decide an address (reading every name of a large
 * table costs more than the rest of the index); a symbol with a name offset of 0 has none. An
 * address whose largest symbol end below it belongs to a nameless symbol, and a module whose
 * symbol values libdw resolves differently (function descriptors, ET_REL files), keep libdw's
 * own lookup. */

typedef struct index_sym {
    uint64_t value; /* run-time address */
    uint64_t size;
    const char *name;   /* not read while indexing: may still be "" */
    int32_t index;      /* position in libdw's table: the scan order */
    uint8_t bind;       /* 3 global, 2 weak, 1 local, 0 other */
    uint8_t exact_only; /* section index >= SHN_LORESERVE: same section only at its value */
} index_sym;

/* The symbols of one scan pass, by value, with the running maximum of their ends (value +
 * size as libdw computes it: it may wrap) and the symbol that reached it. */
typedef struct pass_ends {
    uint64_t *values;
    uint64_t *max_end;
    const index_sym **max_sym;
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
    index_sym *syms;  /* every symbol considered, by value, then table order */
    size_t nsyms;
    const index_sym **sized; /* sized symbols by value, with the running maximum of their reach */
    uint64_t *sized_reach;   /* (value + size, saturated) */
    size_t nsized;
    const index_sym **sizeless; /* sizeless symbols by value */
    size_t nsizeless;
    pass_ends pass[2];  /* [0] global pass, [1] local pass */
    int sections_state; /* 0 not read, 1 read, -1 unreadable (libdw: no section known) */
    section *sections;
    size_t nsections;
} sym_index;

/* What index_lookup returns when libdw's own lookup must decide. */
static const char lookup_by_libdw[] = "";
#define LOOKUP_LIBDW (&lookup_by_libdw[0])

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

static int by_index(const void *a, const void *b)
{
    const index_sym *x = *(const index_sym *const *)a, *y = *(const index_sym *const *)b;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void index_free(sym_index *idx)
{
    free(idx->syms);
    free(idx->sized);
    free(idx->sized_reach);
    free(idx->sizeless);
    for (int p = 0; p < 2; p++) {
        free(idx->pass[p].values);
        free(idx->pass[p].max_end);
        free(idx->pass[p].max_sym);
    }
    free(idx->sections);
    memset(idx, 0, sizeof *idx);
}

/* The pass (0 global, 1 local) that scans table position 'index'. */
static int pass_of(const sym_index *idx, int32_t index)
{
    return index >= (idx->first_global > 1 ? idx->first_global : 1) ? 0 : 1;
}

typedef struct sort_key {
    uint64_t value;
    uint32_t at; /* position in table order */
} sort_key;

/* Sorts 'keys' by value, stably (equal values keep table order): a radix sort, 8 bits a pass,
 * over the bits in which the values differ. Returns 0, or -1 out of memory. */
static int sort_by_value(sort_key *keys, size_t n)
{
    if (n < 2)
        return 0;
    uint64_t low = UINT64_MAX, high = 0;
    for (size_t i = 0; i < n; i++) {
        low = keys[i].value < low ? keys[i].value : low;
        high = keys[i].value > high ? keys[i].value : high;
    }
    sort_key *tmp = malloc(n * sizeof *tmp), *from = keys, *to = tmp;
    if (tmp == NULL)
        return -1;
    for (unsigned shift = 0; shift < 64 && ((high - low) >> shift) != 0; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((from[i].value - low) >> shift & 0xff) + 1]++;
        for (size_t d = 1; d < 257; d++)
            count[d] += count[d - 1];
        for (size_t i = 0; i < n; i++)
            to[count[(from[i].value - low) >> shift & 0xff]++] = from[i];
        sort_key *swap = from;
        from = to;
        to = swap;
    }
    if (from != keys)
        memcpy(keys, from, n * sizeof *keys);
    free(tmp);
    return 0;
}

/* Starts 'idx' for 'mod': its table's size and first global symbol. Returns 1 when the index
 * can be built; else 0 with the state INDEX_EMPTY (no symbol table) or INDEX_LIBDW (an ET_REL
 * file or no ELF header: libdw's own lookup). */
static int index_begin(sym_index *idx, Dwfl_Module *mod)
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
    return 1;
}

/* Reads the symbols that libdw's lookup considers into 'all', in table order, with their sort
 * keys in 'keys' (room for idx->count each); how many into '*n'. Returns 0, or 1 when a value
 * is one libdw resolved, which the index does not model (the module keeps libdw's lookup). */
static int read_symbols(const sym_index *idx, Dwfl_Module *mod, index_sym *all, sort_key *keys,
                        size_t *n)
{
    for (int i = 1; i < idx->count; i++) {
        GElf_Sym sym;
        GElf_Addr value;
        GElf_Word shndx;
        Elf *elf;
        Dwarf_Addr bias;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &value, &shndx, &elf, &bias);
        int type = GELF_ST_TYPE(sym.st_info);
        if (name == NULL || (sym.st_name == 0 && name[0] == '\0') || sym.st_shndx == SHN_UNDEF ||
            type == STT_SECTION || type == STT_FILE || type == STT_TLS)
            continue;
        /* libdw adds the bias to a value in an allocated section, else keeps it; any other
         * value is one it resolved (a function descriptor), which its lookup also tries
         * unresolved: not modelled here. */
        uint64_t expected = sym.st_value;
        if (sym.st_shndx != SHN_ABS && sym.st_shndx != SHN_COMMON && shndx != (GElf_Word)-1)
            expected += bias;
        if (value != expected)
            return 1;
        all[*n] = (index_sym){value,
                              sym.st_size,
                              name,
                              i,
                              (uint8_t)binding_value(sym.st_info),
                              shndx >= SHN_LORESERVE};
        keys[*n] = (sort_key){value, (uint32_t)*n};
        (*n)++;
    }
    return 0;
}

/* idx->syms: the 'n' symbols of 'all' by value, equal values in table order ('keys' is sorted
 * here). Returns 0, or -1 out of memory. */
static int sort_symbols(sym_index *idx, const index_sym *all, sort_key *keys, size_t n)
{
    idx->syms = malloc((n ? n : 1) * sizeof *idx->syms);
    if (idx->syms == NULL || sort_by_value(keys, n) < 0)
        return -1;
    for (size_t k = 0; k < n; k++)
        idx->syms[k] = all[keys[k].at];
    idx->nsyms = n;
    return 0;
}

/* Allocates the lists that index_fill fills: the sized and sizeless symbols and each pass's
 * values and running maximum of ends. Returns 0, or -1 when any allocation failed (the caller
 * frees the others with index_free). */
static int index_alloc(sym_index *idx)
{
    size_t n = idx->nsyms, nsized = 0, per_pass[2] = {0, 0};
    for (size_t k = 0; k < n; k++) {
        nsized += idx->syms[k].size != 0;
        per_pass[pass_of(idx, idx->syms[k].index)]++;
    }
    idx->sized = malloc((nsized ? nsized : 1) * sizeof *idx->sized);
    idx->sized_reach = malloc((nsized ? nsized : 1) * sizeof *idx->sized_reach);
    idx->sizeless = malloc((n - nsized ? n - nsized : 1) * sizeof *idx->sizeless);
    int failed = idx->sized == NULL || idx->sized_reach == NULL || idx->sizeless == NULL;
    for (int p = 0; p < 2; p++) {
        size_t m = per_pass[p] ? per_pass[p] : 1;
        idx->pass[p].values = malloc(m * sizeof *idx->pass[p].values);
        idx->pass[p].max_end = malloc(m * sizeof *idx->pass[p].max_end);
        idx->pass[p].max_sym = malloc(m * sizeof *idx->pass[p].max_sym);
        failed |= idx->pass[p].values == NULL || idx->pass[p].max_end == NULL ||
                  idx->pass[p].max_sym == NULL;
    }
    return failed ? -1 : 0;
}

/* Fills the lists of 'idx' (index_alloc) from idx->syms, in value order. */
static void index_fill(sym_index *idx)
{
    uint64_t reach = 0;
    for (size_t k = 0; k < idx->nsyms; k++) {
        const index_sym *e = &idx->syms[k];
        uint64_t end = e->value + e->size; /* as libdw computes it */
        if (e->size != 0) {
            uint64_t covers = end < e->value ? UINT64_MAX : end;
            reach = covers > reach ? covers : reach;
            idx->sized_reach[idx->nsized] = reach;
            idx->sized[idx->nsized++] = e;
        } else {
            idx->sizeless[idx->nsizeless++] = e;
        }
        pass_ends *p = &idx->pass[pass_of(idx, e->index)];
        p->values[p->count] = e->value;
        if (p->count == 0 || end > p->max_end[p->count - 1]) {
            p->max_end[p->count] = end;
            p->max_sym[p->count] = e;
        } else {
            p->max_end[p->count] = p->max_end[p->count - 1];
            p->max_sym[p->count] = p->max_sym[p->count - 1];
        }
        p->count++;
    }
}

/* Builds 'idx' for 'mod'. Leaves the state INDEX_READY, INDEX_EMPTY or INDEX_LIBDW; -1 only
 * when out of memory (the caller then uses libdw's lookup). */
static int index_build(sym_index *idx, Dwfl_Module *mod)
{
    if (!index_begin(idx, mod))
        return 0;
    size_t cap = idx->count > 1 ? (size_t)idx->count : 1;
    index_sym *all = malloc(cap * sizeof *all);
    sort_key *keys = malloc(cap * sizeof *keys);
    if (all == NULL || keys == NULL) {
        free(all);
        free(keys);
        return -1;
    }
    size_t n = 0;
    int by_libdw = read_symbols(idx, mod, all, keys, &n);
    int sorted = by_libdw ? 0 : sort_symbols(idx, all, keys, n);
    free(all);
    free(keys);
    if (by_libdw) {
        idx->state = INDEX_LIBDW;
        return 0;
    }
    if (sorted < 0 || index_alloc(idx) < 0) {
        index_free(idx);
        return -1;
    }
    index_fill(idx);
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

/* The same over symbols sorted by value. */
static size_t syms_at_or_below(const index_sym *const *syms, size_t count, uint64_t addr)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (syms[mid]->value <= addr)
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

/* The largest end of the symbols of pass 'p' at or below 'addr' (0 for none) into '*end';
 * returns 0, or -1 when the symbol that reaches it has no name (libdw would not count it). */
static int pass_max_end(const pass_ends *p, uint64_t addr, uint64_t *end)
{
    size_t n = count_at_or_below(p->values, p->count, addr);
    *end = n > 0 ? p->max_end[n - 1] : 0;
    return n > 0 && p->max_sym[n - 1]->name[0] == '\0' ? -1 : 0;
}

/* The symbol the scan would name for 'addr'; NULL for none; LOOKUP_LIBDW when libdw's own
 * lookup must decide ('scratch', 'scratch_cap' pointers, is too small, or a nameless symbol
 * would count). */
static const char *index_lookup(sym_index *idx, Dwfl_Module *mod, uint64_t addr,
                                const index_sym **scratch, size_t scratch_cap)
{
    /* Named sized symbols holding addr: walk down from the last one starting at or below it
     * while some symbol at or before the position still reaches past it. */
    size_t held[2] = {0, 0};
    size_t n = 0;
    for (size_t k = syms_at_or_below(idx->sized, idx->nsized, addr);
         k > 0 && idx->sized_reach[k - 1] > addr; k--) {
        const index_sym *s = idx->sized[k - 1];
        if (addr - s->value < s->size && s->name[0] != '\0') {
            if (n == scratch_cap)
                return LOOKUP_LIBDW;
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
    /* A named global sizeless symbol exactly at addr stops the local pass (at its own value a
     * symbol is always in addr's section). */
    size_t at = syms_at_or_below(idx->sizeless, idx->nsizeless, addr);
    int local_pass = idx->first_global > 1;
    for (size_t k = at; k > 0 && local_pass && idx->sizeless[k - 1]->value == addr; k--) {
        const index_sym *s = idx->sizeless[k - 1];
        if (pass_of(idx, s->index) == 0 && s->name[0] != '\0')
            local_pass = 0;
    }
    if (local_pass) {
        best = fold_sized(scratch, held[1]);
        if (best != NULL)
            return best->name;
    }
    /* No sized symbol: the last named sizeless one in scan order, in addr's section, sitting
     * at the largest end of all the symbols scanned below addr. */
    uint64_t label, local = 0;
    if (pass_max_end(&idx->pass[0], addr, &label) < 0 ||
        (local_pass && pass_max_end(&idx->pass[1], addr, &local) < 0))
        return LOOKUP_LIBDW;
    label = local > label ? local : label;
    const index_sym *last[2] = {NULL, NULL};
    for (size_t k = at; k > 0 && idx->sizeless[k - 1]->value >= label; k--) {
        const index_sym *s = idx->sizeless[k - 1];
        int p = pass_of(idx, s->index);
        if (s->value != label || (p == 1 && !local_pass) || s->name[0] == '\0' ||
            !same_section(idx, mod, s, addr))
            continue;
        if (last[p] == NULL || s->index > last[p]->index)
            last[p] = s;
    }
    const index_sym *chosen = last[1] != NULL ? last[1] : last[0];
    return chosen != NULL ? chosen->name : NULL;
}

/* ---- modules ---- */

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

/* The key of a module that has no GNU build-id (XLA's CUDA plugin, for one): the file's
 * identity, which any change to the file changes: device, inode, size and modification time,
 * after a marker byte no build-id starts with in practice (0xff, then "file"). Fills 'id'
 * (SS_FILE_ID_LEN bytes). Returns 0, or -1 when the file cannot be looked at. */
#define SS_FILE_ID_LEN 37
static int file_identity(const char *path, unsigned char id[SS_FILE_ID_LEN])
{
    struct stat st;
    if (path == NULL || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    uint64_t fields[4] = {(uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_size,
                          (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec};
    static const unsigned char marker[5] = {0xff, 'f', 'i', 'l', 'e'};
    memcpy(id, marker, sizeof marker);
    memcpy(id + 5, fields, sizeof fields);
    return 0;
}

/* The module's table in the persistent cache, read at its first use; NULL when the module is
 * not cached (no cache, or no ELF file). A module without a build-id is keyed by its file's
 * identity (file_identity). */
static ss_symcache_table *module_cache(ss_symbolizer *s, sym_module *m)
{
    if (m->cache_state == 0) {
        m->cache_state = -1;
        const unsigned char *id = NULL;
        unsigned char file_id[SS_FILE_ID_LEN];
        GElf_Addr vaddr;
        int len =
            s->cache_dir != NULL && m->has_bias ? dwfl_module_build_id(m->mod, &id, &vaddr) : 0;
        if (len <= 0 && s->cache_dir != NULL && m->has_bias &&
            file_identity(m->path, file_id) == 0) {
            id = file_id;
            len = SS_FILE_ID_LEN;
        }
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
        s->stats.symbols += idx->nsyms;
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
        if (name == LOOKUP_LIBDW)
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
