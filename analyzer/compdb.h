/* compdb.h: argument vectors and the compile database (compdb.c): reading
 * compile_commands.json, splitting command lines, expanding response files. Private to the
 * analyzer. */
#ifndef SS_ANALYZER_COMPDB_H
#define SS_ANALYZER_COMPDB_H

#include <stddef.h>

/* A growable argument vector; every string is owned by it. */
typedef struct ss_args {
    char **v;
    size_t count, cap;
} ss_args;

/* Appends a copy of 'arg'. */
void ss_args_push(ss_args *args, const char *arg);
/* Frees every string and the vector; leaves 'args' empty and reusable. */
void ss_args_free(ss_args *args);

/* One compile_commands.json entry. 'file' is absolute (joined with 'directory'), its folder
 * resolved but its own name kept as the database gives it, a symbolic link too; 'real' is its
 * realpath (NULL when it does not exist). */
typedef struct ss_compile_command {
    char *directory;
    char *file;
    char *real;
    ss_args argv; /* the compiler command line, argv[0] is the compiler */
} ss_compile_command;

typedef struct ss_compdb {
    ss_compile_command *commands;
    size_t count;
} ss_compdb;

/* Reads BUILD_DIR/compile_commands.json into 'db' (zeroed here). Returns 0, or -1 with a
 * description in 'err'. */
int ss_compdb_load(const char *build_dir, ss_compdb *db, char *err, size_t err_size);
/* Parses a compile database held in memory ('text', 'len' bytes; 'origin' names it in
 * messages). Accepts both the "command" and the "arguments" form. Returns 0, or -1 with a
 * description in 'err'. */
int ss_compdb_parse(const char *text, size_t len, const char *origin, ss_compdb *db, char *err,
                    size_t err_size);
/* The entry for the absolute path 'file' (its 'file', else its 'real'), or NULL. */
const ss_compile_command *ss_compdb_find(const ss_compdb *db, const char *file);
void ss_compdb_free(ss_compdb *db);
/* Splits a shell command line into words the way a POSIX shell would (quotes, backslashes;
 * no expansion). Returns 0, or -1 on an unterminated quote. */
int ss_compdb_split(const char *command, ss_args *out);

/* Bounds of response-file expansion: nesting depth, the size of one file, the bytes of all
 * files of one command, the files one command opens (each time a file is named counts), and
 * the arguments of one command. */
#define SS_COMPDB_RESPONSE_DEPTH 8
#define SS_COMPDB_RESPONSE_MAX_BYTES (1ull << 20)
#define SS_COMPDB_RESPONSE_BUDGET (8ull << 20)
#define SS_COMPDB_RESPONSE_MAX_FILES 256
#define SS_COMPDB_RESPONSE_MAX_ARGS 65536

/* Copies the command line 'argv' to 'out' with its response files expanded: "@FILE", and
 * nvcc's "--options-file FILE" / "-optf FILE" (also "=FILE", and a comma-separated list),
 * are replaced by the words of FILE, split like a shell command line, and expanded in turn.
 * Relative file names are taken from 'directory' (the entry's "directory"; nested ones too,
 * as the compiler, run there, would). Each file must be a regular file of at most
 * SS_COMPDB_RESPONSE_MAX_BYTES, nested at most SS_COMPDB_RESPONSE_DEPTH deep, within the
 * bounds above, which are checked before a file is read. Returns 0, or -1 with the first
 * failure described in 'err': from there on no response file is opened (the file that
 * failed and those after it are left out; the other arguments are kept). */
int ss_compdb_expand(const ss_args *argv, const char *directory, ss_args *out, char *err,
                     size_t err_size);

#endif
