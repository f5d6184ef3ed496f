/* symbench.c: the finisher's symbolization, step by step, side by side (bench/exit/run.sh):
 * the same addresses resolved with libdw's own symbol lookup (the way the finisher worked
 * before the symbol index: the whole symbol table scanned per address), with the index, and
 * through the persistent cache, cold and warm; every result must be identical to libdw's.
 *
 *   symbench [--per-module N] [--seed S] [--rounds R] MODULE...
 *   symbench [--rounds R] --trace FILE.sstrace
 *
 * With modules: N addresses per module (default 60), half inside functions of its symbol
 * table, half anywhere in its executable segments (code of hidden functions, as most frames of
 * a stripped library are), each module placed at a load bias of its own. With a trace: the
 * native frames of a trace written by `syncscope run --trace`, at the biases it recorded
 * (the modules must still be the files the run loaded). Prints the table of
 * docs/studies/performance.md ("Exit time") and exits 0, 1 when a result differs from libdw's, 2 on
 * a usage or input error. */
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "symbolize.h"

#define MAX_MODULES 64

typedef struct address {
    uint64_t pc; /* a return address: the instruction before it is looked up */
    int module;
} address;

typedef struct workload {
    const char *paths[MAX_MODULES];
    uint64_t biases[MAX_MODULES];
    size_t module_count;
    address *addresses;
    size_t count, cap;
} workload;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void add_address(workload *w, uint64_t pc, int module)
{
    if (w->count == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 1024;
        w->addresses = realloc(w->addresses, w->cap * sizeof *w->addresses);
        if (w->addresses == NULL)
            exit(2);
    }
    w->addresses[w->count++] = (address){pc, module};
}

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* 'per_module' addresses of module 'm' (its file opened with libelf). */
static int sample_module(workload *w, int m, size_t per_module, uint64_t *seed)
{
    int fd = open(w->paths[m], O_RDONLY | O_CLOEXEC);
    Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
    if (elf == NULL) {
        fprintf(stderr, "symbench: cannot read '%s'\n", w->paths[m]);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    /* Executable segments, and the functions of the symbol tables. */
    uint64_t seg_start[16], seg_size[16], total = 0;
    size_t nseg = 0, phnum = 0;
    elf_getphdrnum(elf, &phnum);
    for (size_t i = 0; i < phnum && nseg < 16; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) != NULL && ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
            ph.p_memsz > 16) {
            seg_start[nseg] = ph.p_vaddr;
            seg_size[nseg] = ph.p_memsz;
            total += ph.p_memsz;
            nseg++;
        }
    }
    uint64_t *fn_start = NULL, *fn_size = NULL;
    size_t nfn = 0, fn_cap = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == NULL ||
            (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB) || sh.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        for (size_t i = 0; data != NULL && i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym sym;
            if (gelf_getsym(data, (int)i, &sym) == NULL || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
                sym.st_shndx == SHN_UNDEF || sym.st_size < 2)
                continue;
            if (nfn == fn_cap) {
                fn_cap = fn_cap ? fn_cap * 2 : 1024;
                fn_start = realloc(fn_start, fn_cap * sizeof *fn_start);
                fn_size = realloc(fn_size, fn_cap * sizeof *fn_size);
                if (fn_start == NULL || fn_size == NULL)
                    exit(2);
            }
            fn_start[nfn] = sym.st_value;
            fn_size[nfn++] = sym.st_size;
        }
    }
    elf_end(elf);
    close(fd);
    if (total == 0) {
        fprintf(stderr, "symbench: '%s' has no executable segment\n", w->paths[m]);
        return -1;
    }
    for (size_t i = 0; i < per_module; i++) {
        uint64_t vaddr;
        if (i % 2 == 0 && nfn > 0) {
            size_t f = (size_t)(next_random(seed) % nfn);
            vaddr = fn_start[f] + 1 + next_random(seed) % (fn_size[f] - 1);
        } else {
            uint64_t at = next_random(seed) % total;
            size_t s = 0;
            while (at >= seg_size[s]) {
                at -= seg_size[s];
                s++;
            }
            vaddr = seg_start[s] + at + 1;
        }
        add_address(w, w->biases[m] + vaddr, m);
    }
    free(fn_start);
    free(fn_size);
    return 0;
}

/* ---- a trace's native frames ---- */

/* Decodes a trace string (percent escapes, "-" for empty) in place. */
static void unescape(char *text)
{
    if (strcmp(text, "-") == 0) {
        text[0] = '\0';
        return;
    }
    char *out = text;
    for (char *p = text; *p; p++) {
        if (*p == '%' && p[1] && p[2]) {
            char hex[3] = {p[1], p[2], 0};
            *out++ = (char)strtol(hex, NULL, 16);
            p += 2;
        } else {
            *out++ = *p;
        }
    }
    *out = '\0';
}

static int read_trace(workload *w, const char *file)
{
    FILE *f = fopen(file, "r");
    if (f == NULL) {
        fprintf(stderr, "symbench: cannot read '%s'\n", file);
        return -1;
    }
    char **strings = NULL;
    size_t nstrings = 0, cap = 0;
    char *line = NULL;
    size_t line_cap = 0;
    /* Pass over the file: strings and module bases first (they come before the frames). */
    while (getline(&line, &line_cap, f) > 0) {
        line[strcspn(line, "\n")] = '\0';
        char *fields[8];
        size_t n = 0;
        for (char *save = NULL, *tok = strtok_r(line, " ", &save); tok && n < 8;
             tok = strtok_r(NULL, " ", &save))
            fields[n++] = tok;
        if (n == 3 && strcmp(fields[0], "str") == 0) {
            size_t id = strtoul(fields[1], NULL, 10);
            if (id >= cap) {
                cap = (id + 1) * 2;
                strings = realloc(strings, cap * sizeof *strings);
                if (strings == NULL)
                    exit(2);
            }
            unescape(fields[2]);
            strings[id] = strdup(fields[2]);
            nstrings = id + 1 > nstrings ? id + 1 : nstrings;
        } else if (n == 3 && strcmp(fields[0], "meta") == 0 &&
                   strncmp(fields[1], "base:", 5) == 0 && w->module_count < MAX_MODULES) {
            unescape(fields[1]);
            unescape(fields[2]);
            w->paths[w->module_count] = strdup(fields[1] + 5);
            w->biases[w->module_count++] = strtoull(fields[2], NULL, 16);
        } else if (n == 7 && strcmp(fields[0], "frame") == 0 && strcmp(fields[6], "0") == 0) {
            uint64_t pc = strtoull(fields[1], NULL, 10);
            size_t module = strtoul(fields[4], NULL, 10);
            if (module == 0 || module >= nstrings)
                continue;
            int m = -1;
            for (size_t i = 0; i < w->module_count; i++) {
                if (strcmp(w->paths[i], strings[module]) == 0)
                    m = (int)i;
            }
            int seen = 0;
            for (size_t i = 0; i < w->count && !seen; i++)
                seen = w->addresses[i].pc == pc;
            if (m >= 0 && !seen)
                add_address(w, pc, m);
        }
    }
    free(line);
    fclose(f);
    for (size_t i = 0; i < nstrings; i++)
        free(strings[i]);
    free(strings);
    if (w->count == 0) {
        fprintf(stderr, "symbench: '%s' has no native frame with a module base\n", file);
        return -1;
    }
    return 0;
}

/* ---- the runs ---- */

typedef struct run {
    const char *name;
    ss_sym_stats stats;
    uint64_t demangle_ns, total_ns;
    ss_symcache_entry *results;
} run;

static char *(*demangle)(const char *, char *, size_t *, int *);

static void demangle_all(const ss_symcache_entry *r, uint64_t *ns)
{
    uint64_t start = now_ns();
    const char *names[1 + SS_SYM_INLINE_DEPTH];
    names[0] = r->symbol;
    for (uint8_t k = 0; k < r->nframes; k++)
        names[1 + k] = r->frames[k].function;
    for (size_t i = 0; i <= r->nframes && demangle != NULL; i++) {
        int status;
        if (names[i] != NULL && names[i][0] == '_' && names[i][1] == 'Z')
            free(demangle(names[i], NULL, NULL, &status));
    }
    *ns += now_ns() - start;
}

/* Resolves every address with a new symbolizer; keeps copies of the results in r->results
 * when 'keep' (the strings stay valid while 's' lives: returned for the caller to close). */
static ss_symbolizer *run_once(const workload *w, const ss_sym_options *options, run *r)
{
    uint64_t start = now_ns();
    ss_symbolizer *s = ss_sym_open_files(w->paths, w->biases, w->module_count, options);
    if (s == NULL) {
        fprintf(stderr, "symbench: libdw cannot read the modules\n");
        exit(2);
    }
    r->demangle_ns = 0;
    for (size_t i = 0; i < w->count; i++) {
        ss_sym_resolve(s, w->addresses[i].pc, 1, &r->results[i]);
        demangle_all(&r->results[i], &r->demangle_ns);
    }
    ss_sym_save(s);
    r->total_ns = now_ns() - start;
    r->stats = *ss_sym_stats_get(s);
    return s;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int same_result(const ss_symcache_entry *a, const ss_symcache_entry *b)
{
    if (!same_text(a->symbol, b->symbol) || a->nframes != b->nframes || a->expanded != b->expanded)
        return 0;
    for (uint8_t k = 0; k < a->nframes; k++) {
        if (!same_text(a->frames[k].function, b->frames[k].function) ||
            !same_text(a->frames[k].file, b->frames[k].file) ||
            a->frames[k].line != b->frames[k].line)
            return 0;
    }
    return 1;
}

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

static int by_ns(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    size_t per_module = 60;
    uint64_t seed = 0x5eed5eedull;
    int rounds = 3;
    const char *trace = NULL;
    workload w;
    memset(&w, 0, sizeof w);
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--per-module") == 0 && i + 1 < argc)
            per_module = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0) | 1;
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc)
            trace = argv[++i];
        else
            break;
    }
    if ((trace == NULL) == (i >= argc) || rounds < 1 || rounds > 99 || per_module == 0) {
        fprintf(stderr, "usage: symbench [--per-module N] [--seed S] [--rounds R] MODULE...\n"
                        "       symbench [--rounds R] --trace FILE.sstrace\n");
        return 2;
    }
    elf_version(EV_CURRENT);
    if (trace != NULL) {
        if (read_trace(&w, trace) < 0)
            return 2;
    } else {
        for (; i < argc && w.module_count < MAX_MODULES; i++) {
            w.paths[w.module_count] = argv[i];
            w.biases[w.module_count] = 0x7f0000000000ull + (uint64_t)w.module_count * (1ull << 34);
            if (sample_module(&w, (int)w.module_count, per_module, &seed) < 0)
                return 2;
            w.module_count++;
        }
    }
    *(void **)&demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (demangle == NULL) {
        void *cxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (cxx != NULL)
            *(void **)&demangle = dlsym(cxx, "__cxa_demangle");
    }
    char cache_dir[] = "/tmp/symbench-cache-XXXXXX";
    if (mkdtemp(cache_dir) == NULL) {
        perror("symbench: mkdtemp");
        return 2;
    }
    /* The runs: libdw's scan (the reference), the index, the cache filled, the cache read. */
    enum { LINEAR, INDEX, COLD, WARM, NRUNS };
    run runs[NRUNS] = {
        {.name = "libdw scan"}, {.name = "index"}, {.name = "cache cold"}, {.name = "cache warm"}};
    uint64_t totals[NRUNS][99];
    ss_symbolizer *reference = NULL;
    for (int k = 0; k < NRUNS; k++)
        runs[k].results = calloc(w.count, sizeof *runs[k].results);
    size_t differ = 0;
    for (int round = 0; round < rounds; round++) {
        char rm[128];
        snprintf(rm, sizeof rm, "rm -f %s/*.sym", cache_dir);
        if (system(rm) != 0)
            return 2;
        for (int k = 0; k < NRUNS; k++) {
            ss_sym_options options = {k >= COLD ? cache_dir : NULL, k == LINEAR};
            ss_symbolizer *s = run_once(&w, &options, &runs[k]);
            totals[k][round] = runs[k].total_ns;
            if (k == LINEAR && round == 0) {
                reference = s;
                continue;
            }
            if (round == 0) {
                for (size_t a = 0; a < w.count; a++) {
                    if (same_result(&runs[LINEAR].results[a], &runs[k].results[a]))
                        continue;
                    if (differ++ < 10)
                        fprintf(stderr,
                                "symbench: %s differs at 0x%" PRIx64 " (%s): '%s' vs '%s'\n",
                                runs[k].name, w.addresses[a].pc, w.paths[w.addresses[a].module],
                                runs[LINEAR].results[a].symbol ? runs[LINEAR].results[a].symbol
                                                               : "(none)",
                                runs[k].results[a].symbol ? runs[k].results[a].symbol : "(none)");
                }
            }
            ss_sym_close(s);
        }
    }
    ss_sym_close(reference);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", cache_dir);
    if (system(rm) != 0)
        return 2;
    uint64_t median[NRUNS];
    for (int k = 0; k < NRUNS; k++) {
        qsort(totals[k], (size_t)rounds, sizeof totals[k][0], by_ns);
        median[k] = totals[k][rounds / 2];
    }
    size_t named = 0;
    for (size_t a = 0; a < w.count; a++)
        named += runs[LINEAR].results[a].symbol != NULL;
    printf("symbolization of %zu addresses (%zu with a symbol) in %zu modules, %zu symbols; "
           "steps of the last round, total the median of %d:\n",
           w.count, named, w.module_count, runs[INDEX].stats.symbols, rounds);
    printf("| step | %s | %s | %s | %s |\n|---|---|---|---|---|\n", runs[0].name, runs[1].name,
           runs[2].name, runs[3].name);
#define ROW(label, expr)                                                                           \
    printf("| %s | %.1f ms | %.1f ms | %.1f ms | %.1f ms |\n", label, ms(runs[0].expr),            \
           ms(runs[1].expr), ms(runs[2].expr), ms(runs[3].expr))
    ROW("report modules", stats.report_ns);
    ROW("open files, build-ids", stats.open_ns);
    ROW("read + sort symbol tables", stats.index_ns);
    ROW("symbol lookups", stats.symbol_ns);
    ROW("line tables (getsrc)", stats.line_ns);
    ROW("inlined calls (getscopes)", stats.inline_ns);
    ROW("demangling", demangle_ns);
    ROW("cache read + write", stats.cache_ns);
#undef ROW
    printf("| **total (median)** | %.1f ms | %.1f ms | %.1f ms | %.1f ms |\n", ms(median[0]),
           ms(median[1]), ms(median[2]), ms(median[3]));
    printf("| / libdw scan | 1.000x | %.3fx | %.3fx | %.3fx |\n",
           (double)median[1] / (double)median[0], (double)median[2] / (double)median[0],
           (double)median[3] / (double)median[0]);
    printf("| addresses from libdw / the cache | %zu / 0 | %zu / 0 | %zu / %zu | %zu / %zu |\n",
           runs[0].stats.resolved, runs[1].stats.resolved, runs[2].stats.resolved,
           runs[2].stats.cache_hits, runs[3].stats.resolved, runs[3].stats.cache_hits);
    printf("results identical to libdw's scan: %s (%zu of %zu differ)\n", differ ? "NO" : "yes",
           differ, w.count * (NRUNS - 1));
    return differ ? 1 : 0;
}
