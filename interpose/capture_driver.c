/* capture_driver.c: what the program's CUDA driver and runtime say of themselves (versions,
 * the devices' names), and the driver's functions looked up for the light mode and the
 * kernels' parameter layouts. Nothing is loaded: the program's own libraries are asked. */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "capture_int.h"
#include "pointers.h"

void *ss_capture_driver_symbol(const char *name)
{
    void *found = dlsym(RTLD_DEFAULT, name);
    if (found == NULL) {
        void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (driver != NULL) {
            found = dlsym(driver, name);
            dlclose(driver); /* the driver stays: the program holds it */
        }
    }
    return found;
}

/* The version of the kernel driver, as /proc/driver/nvidia/version gives it ("NVRM version:
 * NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 ..."): the first word of its first
 * line made of digits and dots with a dot in it. Reading a file loads nothing into the
 * program. */
static void read_driver_version(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "re");
    if (f == NULL)
        return;
    char line[512];
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    if (got == NULL)
        return;
    char *save = NULL;
    for (char *word = strtok_r(line, " \t\n", &save); word != NULL;
         word = strtok_r(NULL, " \t\n", &save)) {
        if (strspn(word, "0123456789.") == strlen(word) && word[0] != '.' &&
            strchr(word, '.') != NULL) {
            snprintf(out, size, "%s", word);
            return;
        }
    }
}

/* dl_iterate_phdr's callback: the path of the first loaded CUDA runtime (libcudart.so*) into
 * 'data' (PATH_MAX bytes). */
static int find_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *slash = info->dlpi_name != NULL ? strrchr(info->dlpi_name, '/') : NULL;
    const char *base = slash != NULL ? slash + 1 : info->dlpi_name;
    if (base == NULL || strncmp(base, "libcudart.so", 12) != 0)
        return 0;
    snprintf(data, PATH_MAX, "%s", info->dlpi_name);
    return 1;
}

/* cudaRuntimeGetVersion of the CUDA runtime the program loaded (a shared libcudart, which
 * PyTorch, CuPy and JAX load with RTLD_LOCAL, so it is found by its path), else of one the
 * executable exports; 0 when there is none (a runtime linked statically and not exported).
 * The call only returns the version the runtime was built as. */
static int runtime_version(void)
{
    char path[PATH_MAX] = "";
    void *runtime = NULL;
    if (dl_iterate_phdr(find_runtime, path) != 0)
        runtime = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    int (*get)(int *) =
        (int (*)(int *))dlsym(runtime != NULL ? runtime : RTLD_DEFAULT, "cudaRuntimeGetVersion");
    int version = 0;
    if (get == NULL || get(&version) != 0)
        version = 0;
    if (runtime != NULL)
        dlclose(runtime);
    return version;
}

/* Fills 'out': the driver's CUDA version, the runtime's, the kernel driver's version and,
 * with 'ask_devices', the devices' names from the driver (cuDeviceGetName; CUPTI gave no
 * device record in the runs seen on an H200). The driver is the program's own (RTLD_NOLOAD).
 * Called under the re-entry guard when the program has created its first context, where the
 * driver is loaded and initialized (at exit, the runtime may have unloaded it already: on an
 * H200 with CUDA 13, dlopen of libcuda.so.1 with RTLD_NOLOAD failed there), and at the end
 * for a run that saw no context created, asking for names only when neither a forked child
 * (whose driver state is the parent's) nor a signal (the interrupted thread may hold the
 * driver's locks) ends it. */
void capture_read_devices(device_info *out, int ask_devices)
{
    memset(out, 0, sizeof *out);
    read_driver_version(out->driver, sizeof out->driver);
    out->runtime_version = runtime_version();
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (cuda == NULL)
        return;
    int (*get_version)(int *) = (int (*)(int *))dlsym(cuda, "cuDriverGetVersion");
    int (*get_count)(int *) = (int (*)(int *))dlsym(cuda, "cuDeviceGetCount");
    int (*get_name)(char *, int, int) = (int (*)(char *, int, int))dlsym(cuda, "cuDeviceGetName");
    if (get_version == NULL || get_version(&out->cuda_version) != 0)
        out->cuda_version = 0;
    int count = 0;
    if (ask_devices && get_count != NULL && get_name != NULL && get_count(&count) == 0) {
        for (int d = 0; d < count && d < 64; d++) {
            char name[256];
            if (get_name(name, (int)sizeof name, d) != 0 || name[0] == '\0' ||
                strstr(out->names, name) != NULL)
                continue;
            size_t used = strlen(out->names);
            snprintf(out->names + used, sizeof out->names - used, "%s%s", used ? ", " : "", name);
        }
    }
    dlclose(cuda);
}
