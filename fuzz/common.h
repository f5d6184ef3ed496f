/* common.h: what the fuzz targets share: the input as a file, a sink for output, round trips. */
#ifndef SS_FUZZ_COMMON_H
#define SS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* libFuzzer's entry points, defined by each target (common.c defines the initializer). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes 'size' bytes of 'data' to this process's input file (a regular file in a private
 * temporary folder, rewritten on each call) and returns its path. Aborts when it cannot. */
const char *ss_fuzz_input_file(const void *data, size_t size);

/* A private, empty folder (the root that source excerpts may be read from). */
const char *ss_fuzz_empty_dir(void);

/* An output stream that discards what is written (/dev/null). */
FILE *ss_fuzz_sink(void);

/* A malloc'ed copy of 'data' with a NUL after its 'size' bytes, as the tool's file reader
 * gives text to the parsers. */
char *ss_fuzz_text(const uint8_t *data, size_t size);

/* Stops the run with 'what' on standard error (a broken invariant: the crash the fuzzer
 * reports). */
void ss_fuzz_fail(const char *what) __attribute__((noreturn));

#endif
