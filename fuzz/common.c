/* common.c: the fuzz targets' shared setup: a private temporary folder in $TMPDIR (else on
 * /dev/shm when it can be written), removed at a normal exit. */
#include "common.h"
#include "log.h"
#include "report.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char temp_dir[4096];
static char input_path[4200];
static char empty_path[4200];
static FILE *sink;

static void remove_temp_dir(void)
{
    unlink(input_path);
    rmdir(empty_path);
    rmdir(temp_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    /* The input is written once or twice per run: on tmpfs that costs little, on a disk it
     * costs most of the run. libFuzzer ends without running atexit handlers when its time is
     * up, so run_fuzzer.sh points TMPDIR at a folder it removes itself. */
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0')
        tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(temp_dir, sizeof temp_dir, "%s/syncscope-fuzz.XXXXXX", tmp);
    if (mkdtemp(temp_dir) == NULL)
        ss_fuzz_fail("cannot create a temporary folder");
    snprintf(input_path, sizeof input_path, "%s/input", temp_dir);
    snprintf(empty_path, sizeof empty_path, "%s/root", temp_dir);
    if (mkdir(empty_path, 0700) != 0)
        ss_fuzz_fail("cannot create the empty root folder");
    sink = fopen("/dev/null", "w");
    if (sink == NULL)
        ss_fuzz_fail("cannot open /dev/null");
    atexit(remove_temp_dir);
    return 0;
}

const char *ss_fuzz_input_file(const void *data, size_t size)
{
    int fd = open(input_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        ss_fuzz_fail("cannot write the input file");
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n <= 0)
            ss_fuzz_fail("cannot write the input file");
        p += n;
        size -= (size_t)n;
    }
    close(fd);
    return input_path;
}

const char *ss_fuzz_empty_dir(void)
{
    return empty_path;
}

FILE *ss_fuzz_sink(void)
{
    return sink;
}

char *ss_fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        ss_fuzz_fail("out of memory");
    if (size > 0)
        memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

void ss_fuzz_fail(const char *what)
{
    ss_log_error("fuzz: %s", what);
    abort();
}
