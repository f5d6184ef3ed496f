/* files.h: the tool's file input and output: bounded reads of regular files only, and
 * atomic writes that readers see whole or not at all (docs/configuration.md, "Output files"). */
#ifndef SS_FILES_H
#define SS_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The most bytes the tool reads from one file of each kind (docs/configuration.md, "Limits"):
 * configuration, results, baselines, cache entries and source files; compilation databases;
 * traces. */
#define SS_READ_MAX_BYTES (64ull << 20)
#define SS_READ_MAX_COMPDB_BYTES (1ull << 30)
#define SS_READ_MAX_TRACE_BYTES (4ull << 30)

/* Flags of the file helpers below. */
#define SS_FILE_NOFOLLOW                                                                           \
    1u /* a symbolic link at 'path' itself is not followed: reading                                \
        * refuses it, writing replaces the link (the tool's own folders,                           \
        * such as the cache, where nothing is linked on purpose) */

/* Why the most recent failed call of the file helpers below (ss_file_open_read,
 * ss_read_file, ss_read_file_max, ss_read_prefix, ss_write_file, ss_write_atomic) in this
 * thread failed, in words for "cannot read 'PATH': %s": "not a regular file (a FIFO)",
 * "larger than 64 MiB", "is a directory", or strerror's text. Valid until the next such call
 * in this thread. */
const char *ss_file_error(void);

/* What a file of type 'mode' (st_mode) is, in words, for messages: "a directory", "a FIFO",
 * "a character device", ...; "a regular file" for one. */
const char *ss_file_kind(mode_t mode);

/* Opens 'path' for reading when it is a regular file of at most 'max_bytes' bytes; flags:
 * SS_FILE_NOFOLLOW. A FIFO, device, socket or folder is refused without being opened, so that
 * the call never waits. Returns the descriptor (blocking, close-on-exec; the caller closes
 * it), or -1 with errno set (EISDIR or EINVAL for what is not a regular file, EFBIG for a
 * file over the limit) and ss_file_error saying why. */
int ss_file_open_read(const char *path, uint64_t max_bytes, unsigned flags);

/* Reads all of the regular file 'path' (ss_file_open_read: at most 'max_bytes' bytes, even
 * when it grows while being read) into a malloc'ed buffer with a NUL after the last byte, and
 * its length into *len. Returns the buffer (owned by the caller), or NULL with errno set and
 * ss_file_error saying why. */
char *ss_read_file_max(const char *path, uint64_t max_bytes, unsigned flags, size_t *len);
/* ss_read_file_max with the default limit (SS_READ_MAX_BYTES), following links. */
char *ss_read_file(const char *path, size_t *len);
/* ss_read_file, and when it fails "PATH: why" (ss_file_error) in the caller's error buffer
 * 'err' (ss_set_error), the message of the loaders whose caller prints it. */
char *ss_read_file_err(const char *path, size_t *len, char *err, size_t err_size);
/* Reads the first 'size' bytes (fewer when the file is shorter) of the regular file 'path'
 * into 'buf'. Returns the number read, or -1 with errno set and ss_file_error saying why. */
ssize_t ss_read_prefix(const char *path, void *buf, size_t size);

/* Writes one output (a report, a trace, a baseline) into the FILE it is given. Returns 0, or
 * -1 when writing failed. */
typedef int (*ss_write_fn)(FILE *out, void *context);

/* What ss_write_file could not do. */
typedef enum ss_write_status {
    SS_WRITE_OK = 0,
    SS_WRITE_CREATE_FAILED = -1, /* no temporary file could be created beside 'path' */
    SS_WRITE_FAILED = -2,        /* writing, syncing or renaming failed; temporary removed */
    SS_WRITE_REFUSED = -3        /* 'path' is a folder, a block device or a link to nothing;
                                  * nothing was written */
} ss_write_status;

/* Writes one output of the tool to 'path' by what is there (docs/configuration.md, "Output
 * files"), 'write'('out', 'context') filling it:
 * - nothing, or a regular file: atomically, through a temporary file created (O_EXCL) in the
 *   same folder, flushed, synced, given the mode of the file it replaces (less set-user and
 *   set-group ids; a new file: 0666 less the umask) and renamed over 'path', so that readers
 *   see either the old file or the whole new one;
 * - a symbolic link to a regular file: that file is replaced in the same way, the link stays;
 *   with SS_FILE_NOFOLLOW in 'flags' the link itself is replaced by the file;
 * - a character device, FIFO or socket (or a link to one), "/dev/stdout", "/dev/stderr",
 *   "/dev/fd/N": written as it is, as a shell redirection would, never created, truncated or
 *   replaced (with SS_FILE_NOFOLLOW: refused);
 * - a folder, a block device, a link to nothing: refused (SS_WRITE_REFUSED).
 * Prints nothing. Returns SS_WRITE_OK, or another status with errno set and ss_file_error
 * saying why. */
ss_write_status ss_write_file(const char *path, unsigned flags, ss_write_fn write, void *context);
/* ss_write_file with no flags. */
ss_write_status ss_write_atomic(const char *path, ss_write_fn write, void *context);
/* Writes one output of the tool: to standard output (flushed) when 'path' is NULL or "-",
 * else as ss_write_atomic. Returns 0, or -1 with a message printed. */
int ss_write_output(const char *path, ss_write_fn write, void *context);

#endif
