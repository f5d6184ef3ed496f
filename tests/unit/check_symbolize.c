/* check_symbolize.c: the finisher's symbolizer (interpose/symbolize.c) and its persistent
 * symbol cache (interpose/symcache.c): the symbol index names every address exactly as libdw's
 * own lookup does, inlined calls become frames with their lines, and the cache gives back what
 * was resolved, keyed and validated by build-id, bounded, and ignored when it is not valid. */
#include "check_main.h"
#include "interpose.h"
#include "symbolize.h"
#include "tmp_fixture.h"

#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Where the fixture library is placed: its file addresses plus this. */
#define FIXTURE_BIAS 0x7f1200000000ull

static void setup_tmp(void)
{
    fixture_root_make("symbolize");
}

/* ---- the fixture's own symbol table, read with libelf ---- */

/* The file address of symbol 'name' in the .symtab of the library 'path'. */
static uint64_t file_value(const char *path, const char *name)
{
    elf_version(EV_CURRENT);
    int fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    ck_assert_ptr_nonnull(elf);
    uint64_t value = 0;
    int found = 0;
    for (Elf_Scn *scn = NULL; !found && (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym sym;
            const char *n;
            if (gelf_getsym(data, (int)i, &sym) != NULL &&
                (n = elf_strptr(elf, sh.sh_link, sym.st_name)) != NULL && strcmp(n, name) == 0) {
                value = sym.st_value;
                found = 1;
                break;
            }
        }
    }
    elf_end(elf);
    close(fd);
    ck_assert_msg(found, "%s has no symbol %s", path, name);
    return value;
}

/* The file address of symbol 'name' of the fixture. */
static uint64_t fixture_value(const char *name)
{
    return file_value(SS_SYMTAB_FIXTURE, name);
}

/* The range of the fixture's allocated sections (file addresses). */
static void fixture_range(uint64_t *low, uint64_t *high)
{
    int fd = open(SS_SYMTAB_FIXTURE, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    *low = UINT64_MAX;
    *high = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC) || sh.sh_addr == 0)
            continue;
        if (sh.sh_addr < *low)
            *low = sh.sh_addr;
        if (sh.sh_addr + sh.sh_size > *high)
            *high = sh.sh_addr + sh.sh_size;
    }
    elf_end(elf);
    close(fd);
    ck_assert_uint_lt(*low, *high);
}

static ss_symbolizer *open_fixture(int linear, const char *cache_dir)
{
    const char *paths[] = {SS_SYMTAB_FIXTURE};
    uint64_t biases[] = {FIXTURE_BIAS};
    ss_sym_options options = {cache_dir, linear};
    ss_symbolizer *s = ss_sym_open_files(paths, biases, 1, &options);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* The symbol of file address 'addr' of the fixture ('addr' + 1 is the return address). */
static const char *symbol_at(ss_symbolizer *s, uint64_t addr)
{
    ss_symcache_entry e;
    ck_assert_int_eq(ss_sym_resolve(s, FIXTURE_BIAS + addr + 1, 0, &e), 0);
    return e.symbol;
}

/* The same, or "(outside)" when the address is in no module. */
static const char *symbol_or_outside(ss_symbolizer *s, uint64_t addr)
{
    ss_symcache_entry e;
    if (ss_sym_resolve(s, FIXTURE_BIAS + addr + 1, 0, &e) < 0)
        return "(outside)";
    return e.symbol;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Every address of the fixture, and a little past it, gets the same symbol from the index as
 * from libdw's scan of the whole table. */
START_TEST(test_index_matches_libdw_on_fixture)
{
    ss_symbolizer *linear = open_fixture(1, NULL), *index = open_fixture(0, NULL);
    uint64_t low, high;
    fixture_range(&low, &high);
    size_t checked = 0, named = 0;
    for (uint64_t addr = low; addr < high + 64; addr++) {
        const char *want = symbol_or_outside(linear, addr);
        const char *got = symbol_or_outside(index, addr);
        ck_assert_msg(same_text(want, got), "at 0x%llx: libdw '%s', index '%s'",
                      (unsigned long long)addr, want ? want : "(none)", got ? got : "(none)");
        checked++;
        named += want != NULL && strcmp(want, "(outside)") != 0;
    }
    ck_assert_uint_gt(checked, 600);
    ck_assert_uint_gt(named, 400);
    ck_assert_uint_gt(ss_sym_stats_get(index)->symbols, 20);
    ss_sym_close(linear);
    ss_sym_close(index);
}
END_TEST

/* The names the scan's rules give, one case each. */
START_TEST(test_index_names)
{
    ss_symbolizer *s = open_fixture(0, NULL);
    uint64_t alpha = fixture_value("fx_alpha"), gap = alpha + 64;
    /* A global function beats its shorter weak alias at the same address. */
    ck_assert_str_eq(symbol_at(s, alpha + 8), "fx_alpha");
    ck_assert_str_eq(symbol_at(s, alpha + 40), "fx_alpha");
    /* A gap: the local label before the function is below the function's end. */
    ck_assert_ptr_null(symbol_at(s, gap + 4));
    /* A global sizeless label covers the code after it. */
    ck_assert_str_eq(symbol_at(s, fixture_value("fx_glabel") + 20), "fx_glabel");
    /* A local function: found by the local pass. */
    ck_assert_str_eq(symbol_at(s, fixture_value("fx_local") + 10), "fx_local");
    /* A global function holding the address hides the local one nested in it. */
    ck_assert_str_eq(symbol_at(s, fixture_value("fx_inner") + 4), "fx_outer");
    /* Of two global functions holding it, the one starting closer. */
    ck_assert_str_eq(symbol_at(s, fixture_value("fx_inner2") + 4), "fx_inner2");
    ck_assert_str_eq(symbol_at(s, fixture_value("fx_outer2") + 100), "fx_outer2");
    /* A global sizeless label exactly at the address ends the search before the local pass;
     * past it, the hidden local function holding the address is named. */
    uint64_t exact = fixture_value("fx_exact");
    ck_assert_str_eq(symbol_at(s, exact), "fx_exact");
    ck_assert_str_eq(symbol_at(s, exact + 4), "fx_hidden");
    /* A global function beats a longer weak one at its address; past its end, the weak one. */
    uint64_t short_fn = fixture_value("fx_short");
    ck_assert_str_eq(symbol_at(s, short_fn + 4), "fx_short");
    ck_assert_str_eq(symbol_at(s, short_fn + 20), "fx_long_weak");
    /* A local label after a function's end names the code after it. */
    ck_assert_str_eq(symbol_at(s, fixture_value("fx_local_label") + 8), "fx_local_label");
    /* Data: the object holding the address. */
    ck_assert_str_eq(symbol_at(s, fixture_value("fx_table") + 8), "fx_table");
    ss_sym_close(s);
}
END_TEST

/* ---- real modules of this process ---- */

typedef struct segments {
    uint64_t start[64], size[64];
    size_t count;
} segments;

/* The executable segments of this program, libc and libdw. */
static int collect_segments(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    segments *out = data;
    const char *name = info->dlpi_name;
    int wanted = name[0] == '\0' || strstr(name, "libc.so") != NULL ||
                 strstr(name, "libdw.so") != NULL || strstr(name, "libelf") != NULL;
    for (int i = 0; wanted && i < info->dlpi_phnum && out->count < 64; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            out->start[out->count] = info->dlpi_addr + ph->p_vaddr;
            out->size[out->count++] = ph->p_memsz;
        }
    }
    return 0;
}

static int same_entry(const ss_symcache_entry *a, const ss_symcache_entry *b)
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

/* Addresses spread over this program, libc and libdw: the index, and the cache cold and warm,
 * give what libdw's scan gives, inlined frames and lines included. */
START_TEST(test_process_matches_libdw)
{
    segments segs;
    memset(&segs, 0, sizeof segs);
    dl_iterate_phdr(collect_segments, &segs);
    ck_assert_uint_ge(segs.count, 3);
    enum { PER_SEGMENT = 60 };
    uint64_t pcs[64 * PER_SEGMENT];
    size_t n = 0;
    for (size_t i = 0; i < segs.count; i++) {
        for (size_t k = 0; k < PER_SEGMENT; k++)
            pcs[n++] = segs.start[i] + 1 + segs.size[i] / PER_SEGMENT * k + k % 7;
    }
    ss_sym_options linear_options = {NULL, 1}, index_options = {NULL, 0},
                   cache_options = {fixture_root, 0};
    ss_symbolizer *linear = ss_sym_open_process(getpid(), &linear_options);
    ss_symbolizer *index = ss_sym_open_process(getpid(), &index_options);
    ss_symbolizer *cold = ss_sym_open_process(getpid(), &cache_options);
    ck_assert_ptr_nonnull(linear);
    ck_assert_ptr_nonnull(index);
    ck_assert_ptr_nonnull(cold);
    ss_symcache_entry *want = calloc(n, sizeof *want);
    size_t named = 0;
    for (size_t i = 0; i < n; i++) {
        ss_symcache_entry got;
        ck_assert_int_eq(ss_sym_resolve(linear, pcs[i], 1, &want[i]), 0);
        ck_assert_int_eq(ss_sym_resolve(index, pcs[i], 1, &got), 0);
        ck_assert_msg(same_entry(&want[i], &got), "index differs at %zu: '%s' vs '%s'", i,
                      want[i].symbol ? want[i].symbol : "(none)",
                      got.symbol ? got.symbol : "(none)");
        ck_assert_int_eq(ss_sym_resolve(cold, pcs[i], 1, &got), 0);
        ck_assert(same_entry(&want[i], &got));
        named += want[i].symbol != NULL;
    }
    ck_assert_uint_gt(named, n / 2);
    ck_assert_int_ge(ss_sym_save(cold), 3);
    ck_assert_uint_eq(ss_sym_stats_get(cold)->cache_hits, 0);
    ss_symbolizer *warm = ss_sym_open_process(getpid(), &cache_options);
    for (size_t i = 0; i < n; i++) {
        ss_symcache_entry got;
        ck_assert_int_eq(ss_sym_resolve(warm, pcs[i], 1, &got), 0);
        ck_assert(same_entry(&want[i], &got));
    }
    /* Every address from the cache: no symbol table read, no DWARF asked. */
    ck_assert_uint_eq(ss_sym_stats_get(warm)->cache_hits, n);
    ck_assert_uint_eq(ss_sym_stats_get(warm)->resolved, 0);
    ck_assert_uint_eq(ss_sym_stats_get(warm)->symbols, 0);
    ck_assert_int_eq(ss_sym_save(warm), 0);
    free(want);
    ss_sym_close(warm);
    ss_sym_close(cold);
    ss_sym_close(index);
    ss_sym_close(linear);
}
END_TEST

/* ---- inlined calls ---- */

static volatile uint64_t sink;
static int inlined_line, outer_line;

static __attribute__((noinline)) uint64_t return_address(void)
{
    uint64_t pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
    sink += pc;
    return pc;
}

static inline __attribute__((always_inline)) uint64_t inlined_caller(void)
{
    uint64_t pc = (inlined_line = __LINE__, return_address()); /* the call's line */
    sink += pc;
    return pc;
}

static __attribute__((noinline)) uint64_t outer_caller(void)
{
    uint64_t pc = (outer_line = __LINE__, inlined_caller()); /* the call's line */
    sink += pc;
    return pc;
}

static const char *base_name(const char *path)
{
    const char *slash = path != NULL ? strrchr(path, '/') : NULL;
    return slash != NULL ? slash + 1 : path;
}

/* A call made in outer_caller() through the inlined inlined_caller(): two frames, each with
 * its line, and the symbol table's name of the function that holds the code. libdw's scopes
 * of an inlined call end with the compile unit, not the function it was inlined into: the
 * outer frame has no DWARF name (the finisher gives it the symbol). */
static void check_inlined(const ss_symcache_entry *e)
{
    ck_assert_str_eq(e->symbol, "outer_caller");
    ck_assert_int_eq(e->expanded, 1);
    ck_assert_uint_eq(e->nframes, 2);
    ck_assert_str_eq(e->frames[0].function, "inlined_caller");
    ck_assert_str_eq(base_name(e->frames[0].file), "check_symbolize.c");
    ck_assert_uint_eq(e->frames[0].line, (uint32_t)inlined_line);
    ck_assert_ptr_null(e->frames[1].function);
    ck_assert_str_eq(base_name(e->frames[1].file), "check_symbolize.c");
    ck_assert_uint_eq(e->frames[1].line, (uint32_t)outer_line);
}

START_TEST(test_inlined_frames)
{
    uint64_t pc = outer_caller();
    ss_sym_options options[] = {{NULL, 1}, {NULL, 0}, {fixture_root, 0}, {fixture_root, 0}};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        ss_symbolizer *s = ss_sym_open_process(getpid(), &options[i]);
        ck_assert_ptr_nonnull(s);
        ss_symcache_entry e;
        ck_assert_int_eq(ss_sym_resolve(s, pc, 1, &e), 0);
        check_inlined(&e);
        /* Without inlined calls (a frame of the tool's own modules): the line table's place
         * and the symbol alone, from the cache too. */
        ck_assert_int_eq(ss_sym_resolve(s, pc, 0, &e), 0);
        ck_assert_str_eq(e.symbol, "outer_caller");
        ck_assert_uint_eq(e.nframes, 1);
        ck_assert_int_eq(e.expanded, 0);
        ck_assert_ptr_null(e.frames[0].function);
        ck_assert_uint_eq(e.frames[0].line, (uint32_t)inlined_line);
        ck_assert_uint_eq(ss_sym_stats_get(s)->cache_hits, i == 3 ? 2 : i == 2 ? 1 : 0);
        ss_sym_save(s);
        ss_sym_close(s);
    }
}
END_TEST

/* ---- the cache files ---- */

static const unsigned char build_id[20] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde,
                                           0xf0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
                                           0xcd, 0xef, 0x42, 0x42, 0x42, 0x42};

static void cache_path(char *out, size_t size)
{
    ck_assert_int_eq(ss_symcache_path(fixture_root, build_id, sizeof build_id, out, size), 0);
}

static ss_symcache_entry entry(uint64_t offset, const char *symbol, uint8_t nframes)
{
    ss_symcache_entry e;
    memset(&e, 0, sizeof e);
    e.offset = offset;
    e.symbol = symbol;
    e.expanded = nframes > 1;
    e.nframes = nframes;
    for (uint8_t k = 0; k < nframes; k++) {
        e.frames[k].function = k == 0 ? NULL : "_ZN5outer3runEv";
        e.frames[k].file = k % 2 ? NULL : "/src/app.cu";
        e.frames[k].line = 10u + k;
    }
    return e;
}

static const ss_symcache_debug no_debug;

START_TEST(test_cache_round_trip)
{
    ss_symcache_table t;
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    ck_assert_uint_eq(ss_symcache_load(fixture_root, &t), 0);
    ss_symcache_entry a = entry(0x1234, "_Z4mainv", 3), b = entry(0x99, NULL, 1);
    b.frames[0].file = NULL;
    b.frames[0].line = 0;
    ck_assert_int_eq(ss_symcache_add(&t, &a), 0);
    ck_assert_int_eq(ss_symcache_add(&t, &b), 0);
    ck_assert_int_eq(ss_symcache_save(fixture_root, &t, &no_debug), 1);
    ss_symcache_free(&t);

    char path[PATH_MAX];
    cache_path(path, sizeof path);
    ck_assert_str_eq(base_name(path), "123456789abcdef00123456789abcdef42424242.sym");
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777 & ~0666, 0);

    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    ck_assert_uint_eq(ss_symcache_load(fixture_root, &t), 2);
    const ss_symcache_entry *got = ss_symcache_find(&t, 0x1234);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got->symbol, "_Z4mainv");
    ck_assert_uint_eq(got->nframes, 3);
    ck_assert_int_eq(got->expanded, 1);
    ck_assert_ptr_null(got->frames[0].function);
    ck_assert_str_eq(got->frames[0].file, "/src/app.cu");
    ck_assert_uint_eq(got->frames[0].line, 10);
    ck_assert_str_eq(got->frames[1].function, "_ZN5outer3runEv");
    ck_assert_ptr_null(got->frames[1].file);
    ck_assert_uint_eq(got->frames[2].line, 12);
    got = ss_symcache_find(&t, 0x99);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_null(got->symbol);
    ck_assert_ptr_null(got->frames[0].file);
    ck_assert_ptr_null(ss_symcache_find(&t, 0x98));
    /* Nothing added: the file is not written again. */
    ck_assert_int_eq(ss_symcache_save(fixture_root, &t, &no_debug), 0);
    ss_symcache_free(&t);
    /* Another build-id has no entries. */
    unsigned char other[20];
    memcpy(other, build_id, sizeof other);
    other[19] ^= 1;
    ck_assert_int_eq(ss_symcache_init(&t, other, sizeof other), 0);
    ck_assert_uint_eq(ss_symcache_load(fixture_root, &t), 0);
    ss_symcache_free(&t);
}
END_TEST

/* Writes 'bytes' over the cache file of 'build_id' at 'offset' (or truncates it to 'offset'
 * when 'bytes' is NULL). */
static void damage(long offset, const char *bytes)
{
    char path[PATH_MAX];
    cache_path(path, sizeof path);
    if (bytes == NULL) {
        ck_assert_int_eq(truncate(path, offset), 0);
        return;
    }
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
    ck_assert_uint_eq(fwrite(bytes, 1, strlen(bytes), f), strlen(bytes));
    fclose(f);
}

static void write_valid_file(void)
{
    ss_symcache_table t;
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    ss_symcache_entry a = entry(0x10, "_Z1fv", 2);
    ck_assert_int_eq(ss_symcache_add(&t, &a), 0);
    ck_assert_int_eq(ss_symcache_save(fixture_root, &t, &no_debug), 1);
    ss_symcache_free(&t);
}

static size_t load_count(void)
{
    ss_symcache_table t;
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    size_t n = ss_symcache_load(fixture_root, &t);
    ck_assert_uint_eq(t.count, n);
    ss_symcache_free(&t);
    return n;
}

/* A damaged, truncated, foreign or linked file is as no file; the next save replaces it. */
START_TEST(test_cache_invalid_files)
{
    write_valid_file();
    ck_assert_uint_eq(load_count(), 1);
    damage(0, "XXSYMC01");
    ck_assert_uint_eq(load_count(), 0);
    write_valid_file();
    damage(8, "\x02"); /* version 2 */
    ck_assert_uint_eq(load_count(), 0);
    write_valid_file();
    char path[PATH_MAX];
    cache_path(path, sizeof path);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    damage(st.st_size - 3, NULL); /* truncated in the last entry */
    ck_assert_uint_eq(load_count(), 0);
    write_valid_file();
    damage(20, "\x07"); /* the build-id recorded inside differs from the name */
    ck_assert_uint_eq(load_count(), 0);
    write_valid_file();
    damage(st.st_size - 12, "\xff\xff\xff\x7f"); /* a string reference out of range */
    ck_assert_uint_eq(load_count(), 0);
    /* A link where the file should be is not followed. */
    char target[PATH_MAX];
    snprintf(target, sizeof target, "%s/elsewhere", fixture_root);
    write_valid_file();
    ck_assert_int_eq(rename(path, target), 0);
    ck_assert_int_eq(symlink(target, path), 0);
    ck_assert_uint_eq(load_count(), 0);
    write_valid_file(); /* replaces the link with a file */
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_uint_eq(load_count(), 1);
}
END_TEST

/* Entries made with a separate debug file are stale once that file changes; entries made
 * without one stay valid. */
START_TEST(test_cache_debug_changed)
{
    char debug_file[PATH_MAX];
    snprintf(debug_file, sizeof debug_file, "%s/module.debug", fixture_root);
    FILE *f = fopen(debug_file, "w");
    ck_assert_ptr_nonnull(f);
    fputs("debug information", f);
    fclose(f);
    struct stat st;
    ck_assert_int_eq(stat(debug_file, &st), 0);
    ss_symcache_debug debug;
    memset(&debug, 0, sizeof debug);
    snprintf(debug.path, sizeof debug.path, "%s", debug_file);
    debug.size = (uint64_t)st.st_size;
    debug.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    ss_symcache_table t;
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    ss_symcache_entry a = entry(0x10, "_Z1fv", 1);
    ck_assert_int_eq(ss_symcache_add(&t, &a), 0);
    ck_assert_int_eq(ss_symcache_save(fixture_root, &t, &debug), 1);
    ss_symcache_free(&t);
    ck_assert_uint_eq(load_count(), 1);
    f = fopen(debug_file, "a");
    fputs(" installed again", f);
    fclose(f);
    ck_assert_uint_eq(load_count(), 0);
    /* Saved anew with the same debug file: the stale entries read before are left out. */
    ck_assert_int_eq(stat(debug_file, &st), 0);
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    write_valid_file(); /* made without a debug file */
    ck_assert_uint_eq(ss_symcache_load(fixture_root, &t), 1);
    debug.size = (uint64_t)st.st_size;
    debug.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    ss_symcache_entry b = entry(0x20, "_Z1gv", 1);
    ck_assert_int_eq(ss_symcache_add(&t, &b), 0);
    ck_assert_int_eq(ss_symcache_save(fixture_root, &t, &debug), 1);
    ss_symcache_free(&t);
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    ck_assert_uint_eq(ss_symcache_load(fixture_root, &t), 1);
    ck_assert_ptr_null(ss_symcache_find(&t, 0x10));
    ck_assert_ptr_nonnull(ss_symcache_find(&t, 0x20));
    ss_symcache_free(&t);
}
END_TEST

/* A module's file stays within SS_SYMCACHE_FILE_MAX, keeping the entries used in this run. */
START_TEST(test_cache_bound)
{
    char *name = malloc(4001);
    ss_symcache_table t;
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    for (uint64_t i = 0; i < 1500; i++) {
        memset(name, 'a' + (int)(i % 26), 4000);
        snprintf(name + 3990, 11, "%010llu", (unsigned long long)i);
        ss_symcache_entry e = entry(i * 16, name, 1);
        ck_assert_int_eq(ss_symcache_add(&t, &e), 0);
    }
    ck_assert_int_eq(ss_symcache_save(fixture_root, &t, &no_debug), 1);
    ss_symcache_free(&t);
    char path[PATH_MAX];
    cache_path(path, sizeof path);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_le(st.st_size, SS_SYMCACHE_FILE_MAX);
    size_t kept = load_count();
    ck_assert_uint_gt(kept, 900);
    ck_assert_uint_lt(kept, 1500);
    /* A later run that used only the last entries keeps them when new ones push others out. */
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    ck_assert_uint_eq(ss_symcache_load(fixture_root, &t), kept);
    ck_assert_ptr_nonnull(ss_symcache_find(&t, (kept - 1) * 16));
    for (uint64_t i = 5000; i < 5200; i++) {
        memset(name, 'z', 4000);
        snprintf(name + 3990, 11, "%010llu", (unsigned long long)i);
        ss_symcache_entry e = entry(i * 16, name, 1);
        ck_assert_int_eq(ss_symcache_add(&t, &e), 0);
    }
    ck_assert_int_eq(ss_symcache_save(fixture_root, &t, &no_debug), 1);
    ss_symcache_free(&t);
    ck_assert_int_eq(ss_symcache_init(&t, build_id, sizeof build_id), 0);
    ck_assert_uint_gt(ss_symcache_load(fixture_root, &t), 900);
    ck_assert_ptr_nonnull(ss_symcache_find(&t, (kept - 1) * 16));
    ck_assert_ptr_nonnull(ss_symcache_find(&t, 5199 * 16));
    /* The unused entries fill the rest in their order: the first stay, the last went. */
    ck_assert_ptr_nonnull(ss_symcache_find(&t, 0));
    ck_assert_ptr_null(ss_symcache_find(&t, (kept - 2) * 16));
    ss_symcache_free(&t);
    free(name);
}
END_TEST

/* Past the folder's bound the least recently modified files go, down to three quarters. */
START_TEST(test_cache_prune)
{
    char path[PATH_MAX];
    char block[1000];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 10; i++) {
        snprintf(path, sizeof path, "%s/%02d.sym", fixture_root, i);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fwrite(block, 1, sizeof block, f);
        fclose(f);
        struct timespec times[2] = {{1000 + i, 0}, {1000 + i, 0}};
        ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
    }
    snprintf(path, sizeof path, "%s/notes.txt", fixture_root);
    FILE *f = fopen(path, "w");
    fwrite(block, 1, sizeof block, f);
    fclose(f);
    ck_assert_uint_eq(ss_symcache_prune(fixture_root, 20000), 0);
    /* 10000 bytes of cache files against 8000: the four oldest go (6000 left). */
    ck_assert_uint_eq(ss_symcache_prune(fixture_root, 8000), 4);
    for (int i = 0; i < 10; i++) {
        snprintf(path, sizeof path, "%s/%02d.sym", fixture_root, i);
        ck_assert_int_eq(access(path, F_OK) == 0, i >= 4);
    }
    snprintf(path, sizeof path, "%s/notes.txt", fixture_root);
    ck_assert_int_eq(access(path, F_OK), 0);
}
END_TEST

/* The symbolizer writes one file per module it resolved, named by the build-id; without a
 * cache folder nothing is written. */
START_TEST(test_symbolizer_cache_files)
{
    uint64_t pc = outer_caller();
    ss_sym_options none = {NULL, 0};
    ss_symbolizer *s = ss_sym_open_process(getpid(), &none);
    ss_symcache_entry e;
    ck_assert_int_eq(ss_sym_resolve(s, pc, 1, &e), 0);
    ck_assert_int_eq(ss_sym_save(s), 0);
    ss_sym_close(s);
    DIR *d = opendir(fixture_root);
    size_t files = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        files += de->d_name[0] != '.';
    closedir(d);
    ck_assert_uint_eq(files, 0);

    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s/made/symbols", fixture_root);
    ss_sym_options cached = {folder, 0};
    s = ss_sym_open_process(getpid(), &cached);
    ck_assert_int_eq(ss_sym_resolve(s, pc, 1, &e), 0);
    ck_assert_int_eq(ss_sym_save(s), 1);
    ss_sym_close(s);
    struct stat st;
    ck_assert_int_eq(stat(folder, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0700);
    d = opendir(folder);
    files = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        files++;
        ck_assert_uint_eq(strlen(de->d_name), 40 + 4);
        ck_assert_str_eq(de->d_name + 40, ".sym");
        ck_assert_uint_eq(strspn(de->d_name, "0123456789abcdef"), 40);
    }
    closedir(d);
    ck_assert_uint_eq(files, 1);
}
END_TEST

/* Resolves fx_alpha + 8 of the library 'path' through a symbolizer with the cache 'folder';
 * returns how many addresses the cache served, and saves. */
static size_t resolve_alpha(const char *path, const char *folder)
{
    const char *paths[] = {path};
    uint64_t biases[] = {FIXTURE_BIAS};
    ss_sym_options options = {folder, 0};
    ss_symbolizer *s = ss_sym_open_files(paths, biases, 1, &options);
    ck_assert_ptr_nonnull(s);
    ss_symcache_entry e;
    ck_assert_int_eq(ss_sym_resolve(s, FIXTURE_BIAS + file_value(path, "fx_alpha") + 9, 0, &e), 0);
    ck_assert_str_eq(e.symbol, "fx_alpha");
    size_t hits = ss_sym_stats_get(s)->cache_hits;
    ss_sym_save(s);
    ss_sym_close(s);
    return hits;
}

/* A module without a GNU build-id (XLA's CUDA plugin is one) is cached under its file's
 * identity (device, inode, size, modification time): the second run reads it from the cache,
 * and a changed file is another key. */
START_TEST(test_cache_without_build_id)
{
    char copy[PATH_MAX], folder[PATH_MAX], cmd[3 * PATH_MAX];
    snprintf(copy, sizeof copy, "%s/libnoid.so", fixture_root);
    snprintf(folder, sizeof folder, "%s/symbols", fixture_root);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", SS_SYMTAB_FIXTURE_NOID, copy);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_uint_eq(resolve_alpha(copy, folder), 0);
    DIR *d = opendir(folder);
    ck_assert_ptr_nonnull(d);
    size_t files = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        files++;
        /* 0xff "file", then the identity: 37 bytes, 74 hex digits. */
        ck_assert_uint_eq(strlen(de->d_name), 74 + 4);
        ck_assert_int_eq(strncmp(de->d_name, "ff66696c65", 10), 0);
        ck_assert_str_eq(de->d_name + 74, ".sym");
    }
    closedir(d);
    ck_assert_uint_eq(files, 1);
    ck_assert_uint_eq(resolve_alpha(copy, folder), 1);
    struct timespec times[2] = {{1000, 0}, {1000, 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, copy, times, 0), 0);
    ck_assert_uint_eq(resolve_alpha(copy, folder), 0);
    ck_assert_uint_eq(resolve_alpha(copy, folder), 1);
}
END_TEST

/* SYNCSCOPE_SYMBOL_CACHE: the default folder, off, or a folder of one's own. */
START_TEST(test_symbol_cache_setting)
{
    ss_interpose_config c;
    char err[256] = "";
    unsetenv(SS_ENV_SYMBOL_CACHE);
    setenv("XDG_CACHE_HOME", "/var/cache/me", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "/var/cache/me/syncscope/symbols");
    setenv("XDG_CACHE_HOME", "relative", 1);
    setenv("HOME", "/home/me", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "/home/me/.cache/syncscope/symbols");
    setenv(SS_ENV_SYMBOL_CACHE, "1", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "/home/me/.cache/syncscope/symbols");
    unsetenv("HOME");
    unsetenv("XDG_CACHE_HOME");
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "");
    setenv(SS_ENV_SYMBOL_CACHE, "0", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "");
    setenv(SS_ENV_SYMBOL_CACHE, "off", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "");
    setenv(SS_ENV_SYMBOL_CACHE, "/srv/symbols", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.symbol_cache, "/srv/symbols");
    setenv(SS_ENV_SYMBOL_CACHE, "build/symbols", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    char want[PATH_MAX + 32];
    snprintf(want, sizeof want, "%s/build/symbols", c.cwd);
    ck_assert_str_eq(c.symbol_cache, want);
    char *long_value = malloc(5000);
    memset(long_value, 'd', 4999);
    long_value[4999] = '\0';
    setenv(SS_ENV_SYMBOL_CACHE, long_value, 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "SYNCSCOPE_SYMBOL_CACHE is too long");
    free(long_value);
    unsetenv(SS_ENV_SYMBOL_CACHE);
}
END_TEST

static Suite *symbolize_suite(void)
{
    Suite *s = suite_create("symbolize");
    TCase *index = tcase_create("index");
    tcase_set_timeout(index, 120);
    tcase_add_test(index, test_index_matches_libdw_on_fixture);
    tcase_add_test(index, test_index_names);
    suite_add_tcase(s, index);
    TCase *process = tcase_create("process");
    tcase_set_timeout(process, 120);
    tcase_add_checked_fixture(process, setup_tmp, remove_root);
    tcase_add_test(process, test_process_matches_libdw);
    tcase_add_test(process, test_inlined_frames);
    suite_add_tcase(s, process);
    TCase *cache = tcase_create("cache");
    tcase_set_timeout(cache, 60);
    tcase_add_checked_fixture(cache, setup_tmp, remove_root);
    tcase_add_test(cache, test_cache_round_trip);
    tcase_add_test(cache, test_cache_invalid_files);
    tcase_add_test(cache, test_cache_debug_changed);
    tcase_add_test(cache, test_cache_bound);
    tcase_add_test(cache, test_cache_prune);
    tcase_add_test(cache, test_symbolizer_cache_files);
    tcase_add_test(cache, test_cache_without_build_id);
    tcase_add_test(cache, test_symbol_cache_setting);
    suite_add_tcase(s, cache);
    return s;
}

SS_CHECK_MAIN(symbolize_suite)
