/* compdb.c: reads compile_commands.json (both the "command" and the "arguments" form) and
 * expands the response files its command lines name. */
#include "compdb.h"
#include "files.h"
#include "log.h"
#include "path.h"
#include "report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ss_compdb_split(const char *command, ss_args *out)
{
    size_t len = strlen(command);
    char *word = ss_xmalloc(len + 1);
    size_t n = 0;
    int in_word = 0;
    const char *p = command;
    while (*p) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word) {
                word[n] = '\0';
                ss_args_push(out, word);
                n = 0;
                in_word = 0;
            }
            p++;
        } else if (c == '\'') {
            const char *end = strchr(p + 1, '\'');
            if (end == NULL)
                goto unterminated;
            memcpy(word + n, p + 1, (size_t)(end - p - 1));
            n += (size_t)(end - p - 1);
            in_word = 1;
            p = end + 1;
        } else if (c == '"') {
            p++;
            while (*p && *p != '"') {
                if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$' || p[1] == '`'))
                    p++;
                word[n++] = *p++;
            }
            if (*p != '"')
                goto unterminated;
            p++;
            in_word = 1;
        } else if (c == '\\' && p[1]) {
            word[n++] = p[1];
            p += 2;
            in_word = 1;
        } else {
            word[n++] = c;
            p++;
            in_word = 1;
        }
    }
    if (in_word) {
        word[n] = '\0';
        ss_args_push(out, word);
    }
    free(word);
    return 0;
unterminated:
    free(word);
    return -1;
}

/* One command line's response-file expansion. */
typedef struct expansion {
    const char *directory; /* relative file names are taken from here */
    ss_args *out;
    uint64_t budget; /* bytes of response files still allowed */
    unsigned files;  /* response files opened so far */
    char *err;       /* the first failure, for the caller */
    size_t err_size;
    int failed;
} expansion;

/* Records the first failure of an expansion. */
static void expansion_failed(expansion *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void expansion_failed(expansion *x, const char *fmt, ...)
{
    if (x->failed++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->err_size, fmt, ap);
    va_end(ap);
}

static void expand_words(expansion *x, const char *const *argv, size_t count, unsigned depth);

/* Expands the words of the response file 'path', read into 'text' ('len' bytes; NULL when it
 * could not be read, with errno set). */
static void read_words(expansion *x, const char *path, char *text, size_t len, unsigned depth)
{
    if (text == NULL) {
        /* A file over what is left of the budget is refused before it is read. */
        if (errno == EFBIG && x->budget < SS_COMPDB_RESPONSE_MAX_BYTES)
            expansion_failed(x,
                             "the response files of one command exceed %llu bytes in all (at "
                             "'%s')",
                             (unsigned long long)SS_COMPDB_RESPONSE_BUDGET, path);
        else
            expansion_failed(x, "cannot read response file '%s': %s", path, ss_file_error());
    } else if (memchr(text, '\0', len) != NULL) {
        expansion_failed(x, "response file '%s' is not a text file (it contains NUL bytes)", path);
    } else {
        x->budget -= len;
        ss_args words = {0};
        if (ss_compdb_split(text, &words) != 0)
            expansion_failed(x, "unterminated quote in response file '%s'", path);
        else
            expand_words(x, (const char *const *)words.v, words.count, depth + 1);
        ss_args_free(&words);
    }
}

/* Replaces the response file 'name' by its words, expanded in turn. Nothing is opened once
 * the expansion has failed, and the bounds are checked before a file is read: a response
 * file whose words all name itself would otherwise be read once per word at every depth. */
static void expand_file(expansion *x, const char *name, unsigned depth)
{
    if (x->failed)
        return;
    char *path = name[0] == '/' || x->directory == NULL || x->directory[0] == '\0'
                     ? ss_xstrdup(name)
                     : ss_xasprintf("%s/%s", x->directory, name);
    uint64_t max =
        x->budget < SS_COMPDB_RESPONSE_MAX_BYTES ? x->budget : SS_COMPDB_RESPONSE_MAX_BYTES;
    size_t len = 0;
    char *text = NULL;
    if (depth >= SS_COMPDB_RESPONSE_DEPTH) {
        expansion_failed(x, "response files nest more than %d deep at '%s'",
                         SS_COMPDB_RESPONSE_DEPTH, path);
    } else if (x->files >= SS_COMPDB_RESPONSE_MAX_FILES) {
        expansion_failed(x, "the command names more than %d response files in all (at '%s')",
                         SS_COMPDB_RESPONSE_MAX_FILES, path);
    } else {
        x->files++;
        text = ss_read_file_max(path, max, 0, &len);
        read_words(x, path, text, len, depth);
    }
    free(text);
    free(path);
}

/* nvcc's --options-file / -optf: returns 1 when 'arg' is one, with *files set to its
 * "=VALUE" (NULL when the value is the next argument). */
static int is_options_file(const char *arg, const char **files)
{
    static const char *const names[] = {"--options-file", "-optf"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i]);
        if (strncmp(arg, names[i], len) == 0 && (arg[len] == '\0' || arg[len] == '=')) {
            *files = arg[len] == '=' ? arg + len + 1 : NULL;
            return 1;
        }
    }
    return 0;
}

static void expand_words(expansion *x, const char *const *argv, size_t count, unsigned depth)
{
    for (size_t i = 0; i < count; i++) {
        const char *arg = argv[i];
        const char *files = NULL;
        if (arg[0] == '@' && arg[1] != '\0') {
            expand_file(x, arg + 1, depth);
        } else if (is_options_file(arg, &files)) {
            if (files == NULL && i + 1 < count)
                files = argv[++i];
            if (files == NULL || files[0] == '\0') {
                expansion_failed(x, "'%s' names no file", arg);
                continue;
            }
            /* nvcc takes a comma-separated list of files. */
            char *list = ss_xstrdup(files);
            for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
                 name = strtok_r(NULL, ",", &save))
                expand_file(x, name, depth);
            free(list);
        } else if (x->out->count >= SS_COMPDB_RESPONSE_MAX_ARGS) {
            expansion_failed(x, "the command has more than %d arguments",
                             SS_COMPDB_RESPONSE_MAX_ARGS);
            return;
        } else {
            ss_args_push(x->out, arg);
        }
    }
}

int ss_compdb_expand(const ss_args *argv, const char *directory, ss_args *out, char *err,
                     size_t err_size)
{
    if (argv->count == 0)
        return 0;
    expansion x = {directory, out, SS_COMPDB_RESPONSE_BUDGET, 0, err, err_size, 0};
    ss_args_push(out, argv->v[0]);
    expand_words(&x, (const char *const *)argv->v + 1, argv->count - 1, 0);
    return x.failed ? -1 : 0;
}

/* 'path' made absolute against 'directory' (no normalization beyond joining). */
static char *join_path(const char *directory, const char *path)
{
    if (path[0] == '/' || directory == NULL || directory[0] == '\0')
        return ss_xstrdup(path);
    size_t dl = strlen(directory);
    return ss_xasprintf("%s%s%s", directory, directory[dl - 1] == '/' ? "" : "/", path);
}

/* The entry's file as the database names it, its folder resolved (ss_path_named) when the
 * file exists, else the joined path; '*real' receives its realpath (the target of a symbolic
 * link), or NULL. */
static char *canonical(const char *directory, const char *path, char **real)
{
    char *joined = join_path(directory, path);
    *real = realpath(joined, NULL);
    char *named = *real ? ss_path_named(joined) : NULL;
    if (named == NULL)
        return joined;
    free(joined);
    return named;
}

/* A compiler launcher runs the command named by its next word: CMake's
 * <LANG>_COMPILER_LAUNCHER, CC="ccache gcc", distcc's and icecc's wrappers. The entry's command
 * is that compiler's, so the launchers in front of it (and their paths) are left out; a launcher
 * followed by an option (ccache -s) or by nothing is not a compile command and stays. */
static int is_launcher(const char *word)
{
    static const char *const names[] = {"ccache", "sccache", "distcc", "icecc", "buildcache"};
    const char *base = strrchr(word, '/');
    base = base ? base + 1 : word;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(base, names[i]) == 0)
            return 1;
    return 0;
}

static void drop_launchers(ss_args *argv)
{
    size_t skip = 0;
    while (skip + 1 < argv->count && argv->v[skip + 1][0] != '-' && is_launcher(argv->v[skip]))
        skip++;
    if (skip == 0)
        return;
    for (size_t i = 0; i < skip; i++)
        free(argv->v[i]);
    memmove(argv->v, argv->v + skip, (argv->count - skip + 1) * sizeof *argv->v);
    argv->count -= skip;
}

static int parse_entry(const cJSON *entry, size_t index, ss_compile_command *cmd, char *err,
                       size_t err_size)
{
    const cJSON *dir = cJSON_GetObjectItemCaseSensitive(entry, "directory");
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(entry, "file");
    const cJSON *command = cJSON_GetObjectItemCaseSensitive(entry, "command");
    const cJSON *arguments = cJSON_GetObjectItemCaseSensitive(entry, "arguments");
    if (!cJSON_IsObject(entry)) {
        snprintf(err, err_size, "entry %zu is not an object", index + 1);
        return -1;
    }
    if (!cJSON_IsString(dir) || !cJSON_IsString(file)) {
        snprintf(err, err_size, "entry %zu lacks a \"directory\" or \"file\" string", index + 1);
        return -1;
    }
    cmd->directory = ss_xstrdup(dir->valuestring);
    cmd->file = canonical(dir->valuestring, file->valuestring, &cmd->real);
    if (cJSON_IsArray(arguments)) {
        const cJSON *arg;
        cJSON_ArrayForEach(arg, arguments)
        {
            if (!cJSON_IsString(arg)) {
                snprintf(err, err_size, "entry %zu: \"arguments\" holds a non-string", index + 1);
                return -1;
            }
            ss_args_push(&cmd->argv, arg->valuestring);
        }
    } else if (cJSON_IsString(command)) {
        if (ss_compdb_split(command->valuestring, &cmd->argv) != 0) {
            snprintf(err, err_size, "entry %zu: unterminated quote in \"command\"", index + 1);
            return -1;
        }
    } else {
        snprintf(err, err_size, "entry %zu has neither \"arguments\" nor \"command\"", index + 1);
        return -1;
    }
    if (cmd->argv.count == 0) {
        snprintf(err, err_size, "entry %zu has an empty command", index + 1);
        return -1;
    }
    drop_launchers(&cmd->argv);
    return 0;
}

int ss_compdb_parse(const char *text, size_t len, const char *origin, ss_compdb *db, char *err,
                    size_t err_size)
{
    memset(db, 0, sizeof *db);
    if (len == 0 || strspn(text, " \t\r\n") == len) {
        snprintf(err, err_size, "%s is empty", origin);
        return -1;
    }
    if (memchr(text, '\0', len) != NULL) {
        snprintf(err, err_size, "%s is not a text file (it contains NUL bytes)", origin);
        return -1;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (root == NULL) {
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        unsigned line = 1;
        for (size_t i = 0; i < at && i < len; i++)
            line += text[i] == '\n';
        snprintf(err, err_size, "%s is not valid JSON (near line %u)", origin, line);
        return -1;
    }
    if (!cJSON_IsArray(root)) {
        snprintf(err, err_size, "%s is not a JSON array of compile commands", origin);
        cJSON_Delete(root);
        return -1;
    }
    size_t n = (size_t)cJSON_GetArraySize(root);
    db->commands = ss_xcalloc(n, sizeof *db->commands);
    const cJSON *entry;
    size_t i = 0;
    char entry_err[512];
    cJSON_ArrayForEach(entry, root)
    {
        db->count = i + 1;
        if (parse_entry(entry, i, &db->commands[i], entry_err, sizeof entry_err) != 0) {
            snprintf(err, err_size, "%s: %s", origin, entry_err);
            cJSON_Delete(root);
            ss_compdb_free(db);
            return -1;
        }
        i++;
    }
    cJSON_Delete(root);
    return 0;
}

int ss_compdb_load(const char *build_dir, ss_compdb *db, char *err, size_t err_size)
{
    memset(db, 0, sizeof *db);
    char *path = join_path(NULL, build_dir);
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--; /* "build/" names build/compile_commands.json, not build//compile_commands.json */
    char *file = ss_xasprintf("%.*s/compile_commands.json", (int)n, path);
    free(path);
    size_t len = 0;
    char *text = ss_read_file_max(file, SS_READ_MAX_COMPDB_BYTES, 0, &len);
    if (text == NULL) {
        int saved = errno; /* the caller tells a missing file from the others */
        snprintf(err, err_size, "cannot read '%s': %s", file, ss_file_error());
        free(file);
        errno = saved;
        return -1;
    }
    int rc = ss_compdb_parse(text, len, file, db, err, err_size);
    free(text);
    free(file);
    return rc;
}

const ss_compile_command *ss_compdb_find(const ss_compdb *db, const char *file)
{
    for (size_t i = 0; i < db->count; i++) {
        if (strcmp(db->commands[i].file, file) == 0)
            return &db->commands[i];
    }
    /* A file named by its link's target finds the entry that names the link. */
    for (size_t i = 0; i < db->count; i++) {
        if (db->commands[i].real && strcmp(db->commands[i].real, file) == 0)
            return &db->commands[i];
    }
    return NULL;
}

void ss_compdb_free(ss_compdb *db)
{
    for (size_t i = 0; i < db->count; i++) {
        free(db->commands[i].directory);
        free(db->commands[i].file);
        free(db->commands[i].real);
        ss_args_free(&db->commands[i].argv);
    }
    free(db->commands);
    memset(db, 0, sizeof *db);
}
