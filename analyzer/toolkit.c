/* toolkit.c: finds the CUDA toolkit and supplies the parse arguments, the
 * texture_fetch_functions.h shim, the bundled declarations used without a toolkit and the
 * omp.h fallback. */
#include "analyzer.h"
#include "compdb.h"
#include "files.h"
#include "flags.h"
#include "log.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_decls.h"

/* Shim folder (with toolkit) and bundled-declarations folder (without); both virtual. */
#define SHIM_DIR SS_VIRTUAL_INCLUDE "/shim"
#define BUNDLED_DIR SS_VIRTUAL_INCLUDE "/bundled"
/* Included (-include, after clang's CUDA wrapper) into every CUDA translation unit. */
#define CUDACC_SHIM SS_VIRTUAL_INCLUDE "/cudacc/__syncscope_cudacc.h"
/* The omp.h fallback, searched after every other include folder (-idirafter). */
#define OPENMP_DIR SS_VIRTUAL_INCLUDE "/openmp"

static const struct CXUnsavedFile virtual_files[] = {
    {SHIM_DIR "/texture_fetch_functions.h", ss_shim_texture_fetch,
     sizeof ss_shim_texture_fetch - 1},
    {CUDACC_SHIM, ss_shim_cudacc, sizeof ss_shim_cudacc - 1},
    {BUNDLED_DIR "/__syncscope_cuda_runtime.h", ss_bundled_cuda_runtime,
     sizeof ss_bundled_cuda_runtime - 1},
    {BUNDLED_DIR "/cuda_runtime.h", ss_bundled_forward, sizeof ss_bundled_forward - 1},
    {BUNDLED_DIR "/cuda_runtime_api.h", ss_bundled_forward, sizeof ss_bundled_forward - 1},
    {BUNDLED_DIR "/cuda.h", ss_bundled_forward, sizeof ss_bundled_forward - 1},
    {BUNDLED_DIR "/driver_types.h", ss_bundled_forward, sizeof ss_bundled_forward - 1},
    {BUNDLED_DIR "/device_launch_parameters.h", ss_bundled_forward, sizeof ss_bundled_forward - 1},
    {OPENMP_DIR "/omp.h", ss_fallback_omp, sizeof ss_fallback_omp - 1},
    {SS_VIRTUAL_INCLUDE "/openmp-first/omp.h", ss_fallback_omp_first,
     sizeof ss_fallback_omp_first - 1},
};

const struct CXUnsavedFile *ss_toolkit_virtual_files(unsigned *count)
{
    *count = sizeof virtual_files / sizeof virtual_files[0];
    return virtual_files;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_toolkit(const char *root)
{
    char *header = ss_xasprintf("%s/include/cuda_runtime.h", root);
    int ok = is_file(header);
    free(header);
    return ok;
}

/* The toolkit root above an nvcc found on PATH (ROOT/bin/nvcc), or NULL. */
static char *root_from_path(void)
{
    const char *path = getenv("PATH");
    if (path == NULL)
        return NULL;
    char *copy = ss_xstrdup(path);
    char *found = NULL;
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir && !found;
         dir = strtok_r(NULL, ":", &save)) {
        char *nvcc = ss_xasprintf("%s/nvcc", *dir ? dir : ".");
        char *real = access(nvcc, X_OK) == 0 ? realpath(nvcc, NULL) : NULL;
        free(nvcc);
        if (real == NULL)
            continue;
        char *slash = strrchr(real, '/');
        if (slash)
            *slash = '\0';
        slash = strrchr(real, '/');
        if (slash && slash != real)
            *slash = '\0';
        if (is_toolkit(real))
            found = real;
        else
            free(real);
    }
    free(copy);
    return found;
}

/* ss_toolkit_find without the version. */
static int toolkit_root(const char *requested, ss_toolkit *out)
{
    memset(out, 0, sizeof *out);
    if (requested && strcmp(requested, SS_CUDA_PATH_NONE) == 0)
        return 0;
    if (requested) {
        if (!is_toolkit(requested)) {
            ss_log_error("--cuda-path '%s' is not a CUDA toolkit (no include/cuda_runtime.h)",
                         requested);
            return -1;
        }
        out->root = realpath(requested, NULL);
        if (out->root == NULL)
            out->root = ss_xstrdup(requested);
        return 0;
    }
    const char *no_cuda = getenv(SS_ENV_NO_CUDA);
    if (no_cuda && *no_cuda && strcmp(no_cuda, "0") != 0)
        return 0;
    const char *env = getenv(SS_ENV_CUDA_PATH);
    if (env && *env && is_toolkit(env)) {
        out->root = realpath(env, NULL);
        return 0;
    }
    out->root = root_from_path();
    if (out->root)
        return 0;
    if (is_toolkit("/usr/local/cuda")) {
        out->root = realpath("/usr/local/cuda", NULL);
        return 0;
    }
    return 0;
}

/* The version "MAJOR.MINOR[.BUILD]" at 'text' into 'ver'; returns how many parts were read
 * (0 when fewer than two). */
static int read_version(const char *text, int ver[3])
{
    int n = text ? sscanf(text, "%d.%d.%d", &ver[0], &ver[1], &ver[2]) : 0;
    return n >= 2 ? n : 0;
}

/* The text of the file ROOT/'rel', or NULL. Malloc'ed. */
static char *read_in_root(const char *root, const char *rel)
{
    char *path = ss_xasprintf("%s/%s", root, rel);
    size_t size = 0;
    char *text = ss_read_file(path, &size);
    free(path);
    return text;
}

/* From ROOT/version.json (CUDA 11.1 and later): "cuda_nvcc": {..., "version": "13.0.88"}. */
static int version_from_json(const char *root, int ver[3])
{
    char *text = read_in_root(root, "version.json");
    const char *nvcc = text ? strstr(text, "\"cuda_nvcc\"") : NULL;
    const char *key = nvcc ? strstr(nvcc, "\"version\"") : NULL;
    const char *value = key ? strchr(key + 9, '"') : NULL;
    int parts = read_version(value ? value + 1 : NULL, ver);
    free(text);
    return parts;
}

/* From what ROOT/bin/nvcc --version says ("release 13.0, V13.0.88"). */
static int version_from_nvcc(const char *root, int ver[3])
{
    char *nvcc = ss_xasprintf("%s/bin/nvcc", root);
    int parts = 0;
    if (strchr(nvcc, '\'') == NULL && access(nvcc, X_OK) == 0) {
        char *command = ss_xasprintf("'%s' --version 2>/dev/null", nvcc);
        FILE *p = popen(command, "r");
        char line[512];
        while (p && fgets(line, sizeof line, p)) {
            const char *v = strstr(line, ", V");
            if (parts == 0 && v)
                parts = read_version(v + 3, ver);
        }
        if (p)
            pclose(p);
        free(command);
    }
    free(nvcc);
    return parts;
}

/* From ROOT/include/cuda.h's CUDA_VERSION (13000: 13.0; no build number). */
static int version_from_header(const char *root, int ver[3])
{
    char *text = read_in_root(root, "include/cuda.h");
    const char *def = text ? strstr(text, "#define CUDA_VERSION ") : NULL;
    int version = def ? atoi(def + 21) : 0;
    free(text);
    if (version < 1000)
        return 0;
    ver[0] = version / 1000;
    ver[1] = version % 1000 / 10;
    return 2;
}

/* The toolkit's nvcc version, into toolkit->version. */
static void find_version(ss_toolkit *toolkit)
{
    toolkit->version_parts = version_from_json(toolkit->root, toolkit->version);
    if (toolkit->version_parts == 0)
        toolkit->version_parts = version_from_nvcc(toolkit->root, toolkit->version);
    if (toolkit->version_parts == 0)
        toolkit->version_parts = version_from_header(toolkit->root, toolkit->version);
}

int ss_toolkit_find(const char *requested, ss_toolkit *out)
{
    int rc = toolkit_root(requested, out);
    if (rc == 0 && out->root)
        find_version(out);
    return rc;
}

void ss_toolkit_nvcc_macros(const ss_toolkit *toolkit, ss_args *out)
{
    static const char *const names[] = {"__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__",
                                        "__CUDACC_VER_BUILD__"};
    for (int i = 0; i < toolkit->version_parts; i++) {
        char *macro = ss_xasprintf("-D%s=%d", names[i], toolkit->version[i]);
        ss_args_push(out, macro);
        free(macro);
    }
}

void ss_toolkit_free(ss_toolkit *toolkit)
{
    free(toolkit->root);
    toolkit->root = NULL;
}

static void push_pair(ss_args *out, const char *opt, const char *value)
{
    ss_args_push(out, opt);
    ss_args_push(out, value);
}

void ss_toolkit_args(const ss_toolkit *toolkit, ss_lang lang, ss_args *out)
{
    static const char *const lang_names[] = {"c", "c++", "cuda"};
    push_pair(out, "-x", lang_names[lang]);
    push_pair(out, "-idirafter", OPENMP_DIR);
    /* What GCC only warns about in old code and clang 16 refuses: the project builds with
     * GCC, so lint must not fail the file for it (an option of the compile command, later,
     * still wins). */
    if (lang == SS_LANG_C) {
        ss_args_push(out, "-Wno-error=implicit-function-declaration");
        ss_args_push(out, "-Wno-error=implicit-int");
    } else {
        ss_args_push(out, "-Wno-error=reserved-user-defined-literal");
    }
    if (lang == SS_LANG_CUDA) {
        /* nvcc 12 and 13 compile C++17 unless told otherwise (Thrust, CUB and libcu++ in
         * CUDA 13 require it); a -std= from the compile command comes later and wins. */
        ss_args_push(out, "-std=c++17");
        ss_args_push(out, "--cuda-host-only");
        ss_args_push(out, "-nocudalib");
        ss_args_push(out, "-Wno-unknown-cuda-version");
    }
    if (toolkit->root == NULL) {
        if (lang == SS_LANG_CUDA) {
            ss_args_push(out, "-nocudainc");
            /* nvcc includes cuda_runtime.h implicitly in every .cu file. */
            push_pair(out, "-include", "cuda_runtime.h");
            push_pair(out, "-include", CUDACC_SHIM);
        }
        return;
    }
    if (lang == SS_LANG_CUDA) {
        char *path = ss_xasprintf("--cuda-path=%s", toolkit->root);
        ss_args_push(out, path);
        free(path);
        push_pair(out, "-Xclang", "-fcuda-allow-variadic-functions");
        /* The driver includes clang's CUDA wrapper before any -include. */
        push_pair(out, "-include", CUDACC_SHIM);
    }
}

void ss_toolkit_search_args(const ss_toolkit *toolkit, ss_lang lang, ss_args *out)
{
    if (toolkit->root == NULL) {
        push_pair(out, "-isystem", BUNDLED_DIR);
        return;
    }
    if (lang == SS_LANG_CUDA) {
        /* The driver searches TOOLKIT/include itself (--cuda-path), after every -isystem. */
        char *tex = ss_xasprintf("%s/include/texture_fetch_functions.h", toolkit->root);
        if (!is_file(tex))
            push_pair(out, "-isystem", SHIM_DIR);
        free(tex);
    } else {
        char *inc = ss_xasprintf("%s/include", toolkit->root);
        push_pair(out, "-isystem", inc);
        free(inc);
    }
    char *cccl = ss_xasprintf("%s/include/cccl", toolkit->root);
    struct stat st;
    if (lang != SS_LANG_C && stat(cccl, &st) == 0 && S_ISDIR(st.st_mode))
        push_pair(out, "-isystem", cccl);
    free(cccl);
}
