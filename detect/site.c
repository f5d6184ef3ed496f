/* site.c: which frame of a call stack a finding names (just-my-code: the innermost frame of the
 * user's own code) and which library frame the call went through on its way to CUDA
 * (docs/detectors.md, "Call sites"). */
#include "detect_int.h"

#include <string.h>

/* Whether 'module' is CUDA's or the tool's own: never the user's code, never the library a
 * call went through. */
static int is_cuda_module(const char *module)
{
    static const char *const prefixes[] = {
        "libcudart",  "libcuda.", "libcuda-",     "libcupti",        "libsyncscope",
        "libnvidia-", "libnvrtc", "libnvJitLink", "libcudadebugger",
    };
    const char *base = strrchr(module, '/');
    base = base ? base + 1 : module;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    }
    return 0;
}

/* Whether 'module' is, by name, a CUDA, tool, framework or system library. */
static int is_known_library(const char *module)
{
    static const char *const prefixes[] = {
        "libcublas",   "libcudnn",    "libnccl",   "libcufft",   "libcurand",
        "libcusparse", "libcusolver", "libtorch",  "libc10",     "libpython",
        "libc.so",     "libc-",       "libstdc++", "libpthread", "ld-linux",
    };
    if (is_cuda_module(module))
        return 1;
    const char *base = strrchr(module, '/');
    base = base ? base + 1 : module;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    }
    return 0;
}

/* Whether native module 'module' is a library rather than the program's own code: a library
 * known by name, or a file installed where libraries are (/usr, /lib, /lib64, Python packages,
 * conda). The program's executable is its own code, unless it is the Python interpreter. */
static int is_library_module(const det_ctx *ctx, const char *module)
{
    static const char *const dirs[] = {"/usr/", "/lib/", "/lib64/", "/opt/conda/"};
    static const char *const parts[] = {"/site-packages/", "/dist-packages/", "/conda/",
                                        "/miniconda",      "/anaconda",       "/.local/lib/"};
    if (module[0] == '\0')
        return 0;
    const char *exe = ss_evlog_get_meta(ctx->log, "executable");
    if (exe != NULL && strcmp(exe, module) == 0)
        return ctx->python_program;
    if (is_known_library(module))
        return 1;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (strncmp(module, dirs[i], strlen(dirs[i])) == 0)
            return 1;
    }
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (strstr(module, parts[i]) != NULL)
            return 1;
    }
    return 0;
}

/* Whether a frame is code that CUDA put into the user's own binary: nvcc's launch stubs
 * (__device_stub__*, *.cudafe1.stub.c) and the inline templates of the toolkit's headers
 * (crt/, cuda_runtime.h) or of the system headers. Such frames are never the call site: the
 * line the user wrote is further out. */
static int is_generated_frame(const char *function, const char *file)
{
    static const char *const file_parts[] = {
        "/include/crt/",
        "/cuda_runtime.h",
        "/cuda_runtime_api.h",
        ".cudafe1.",
        ".stub.c",
        "/targets/x86_64-linux/include/",
        "/targets/sbsa-linux/include/",
        "/usr/include/",
    };
    if (function != NULL && strstr(function, "__device_stub__") != NULL)
        return 1;
    for (size_t i = 0; file != NULL && i < sizeof file_parts / sizeof file_parts[0]; i++) {
        if (strstr(file, file_parts[i]) != NULL)
            return 1;
    }
    return 0;
}

/* Whether 'function' is the CUDA runtime or driver linked into the program (nvcc links cudart
 * statically by default, so its frames sit in the user's executable): the API entry points
 * (cudaMemcpy, cuMemcpyDtoH_v2, a cuda_runtime.h template such as "cudaError cudaMallocHost<
 * float>(...)", demangled with its return type) and cudart's internals. */
static int is_cuda_function(const char *function)
{
    if (function == NULL || function[0] == '\0')
        return 0;
    static const char *const returns[] = {"cudaError ", "cudaError_t ", "CUresult "};
    for (size_t i = 0; i < sizeof returns / sizeof returns[0]; i++) {
        if (strncmp(function, returns[i], strlen(returns[i])) == 0) {
            function += strlen(returns[i]);
            break;
        }
    }
    if (strncmp(function, "cudart::", 8) == 0 || strncmp(function, "__cudart", 8) == 0 ||
        strncmp(function, "__cuda", 6) == 0 || strncmp(function, "libcudart", 9) == 0)
        return 1;
    if (strncmp(function, "cuda", 4) == 0 && function[4] >= 'A' && function[4] <= 'Z')
        return 1;
    return strncmp(function, "cu", 2) == 0 && function[2] >= 'A' && function[2] <= 'Z';
}

/* Whether 'path' is one of the --attribute-to prefixes or lies under one. */
static int under_user_path(const ss_detect_options *opt, const char *path)
{
    for (size_t i = 0; i < opt->user_path_count; i++) {
        const char *prefix = opt->user_paths[i];
        size_t len = strlen(prefix);
        if (len == 0 || strncmp(path, prefix, len) != 0)
            continue;
        if (prefix[len - 1] == '/' || path[len] == '\0' || path[len] == '/')
            return 1;
    }
    return 0;
}

static const char *str(const det_ctx *ctx, uint32_t id)
{
    return id < ctx->log->string_count ? ctx->log->strings[id] : "";
}

/* Whether Python frame 'f' is the user's code. */
static int user_python(const det_ctx *ctx, const ss_stack_frame *f)
{
    if (f->file == 0)
        return 0;
    const char *file = str(ctx, f->file);
    return ctx->opt->user_path_count > 0 ? under_user_path(ctx->opt, file)
                                         : !ss_python_library_file(file);
}

/* Whether native frame 'f' is CUDA's (its runtime, driver, the tool, or code nvcc generated
 * into the program): never a call site, never the library a call went through. */
static int cuda_frame(const det_ctx *ctx, const ss_stack_frame *f)
{
    const char *function = f->function ? str(ctx, f->function) : NULL;
    const char *file = f->file ? str(ctx, f->file) : NULL;
    return is_cuda_module(str(ctx, f->module)) || is_generated_frame(function, file) ||
           is_cuda_function(function);
}

/* Whether native frame 'f' is the user's own code: with --attribute-to, under one of its
 * paths (its source file, else its module); else outside the libraries. */
static int user_native(const det_ctx *ctx, const ss_stack_frame *f)
{
    if (cuda_frame(ctx, f))
        return 0;
    if (ctx->opt->user_path_count > 0)
        return under_user_path(ctx->opt, f->file ? str(ctx, f->file) : str(ctx, f->module));
    return !is_library_module(ctx, str(ctx, f->module));
}

/* Whether the frame at 'i' is nvcc's host wrapper of a kernel: the frame right outside a
 * __device_stub__ frame, which nvcc places at the kernel's definition, not at the launch. */
static int after_stub(const det_ctx *ctx, const ss_stack *stack, uint32_t i)
{
    if (i == 0)
        return 0;
    const ss_stack_frame *inner = &stack->frames[i - 1], *f = &stack->frames[i];
    return !f->python && inner->function != 0 &&
           strstr(str(ctx, inner->function), "__device_stub__") != NULL &&
           (f->function == 0 || strstr(str(ctx, f->function), "__device_stub__") == NULL);
}

int32_t det_choose_site(const det_ctx *ctx, const ss_stack *stack, int32_t *via)
{
    int32_t site = -1, innermost_python = -1;
    *via = -1;
    /* Python: the innermost frame of the program's own code (print(tensor) reaches CUDA
     * through torch/_tensor_str.py); the innermost Python frame is where the call came from,
     * which PyTorch's own sync debug mode names too. */
    for (uint32_t i = 0; i < stack->depth; i++) {
        const ss_stack_frame *f = &stack->frames[i];
        if (!f->python || f->file == 0)
            continue;
        if (innermost_python < 0)
            innermost_python = (int32_t)i;
        if (user_python(ctx, f)) {
            site = (int32_t)i;
            break;
        }
    }
    if (innermost_python >= 0) {
        if (site < 0)
            return innermost_python;
        if (site != innermost_python)
            *via = innermost_python;
        return site;
    }
    /* Native: the innermost frame of the user's code with a source line; in a binary built
     * without -g, the innermost function of the program's own modules. */
    for (uint32_t i = 0; i < stack->depth && site < 0; i++) {
        const ss_stack_frame *f = &stack->frames[i];
        if (f->file != 0 && f->line != 0 && !after_stub(ctx, stack, i) && user_native(ctx, f))
            site = (int32_t)i;
    }
    for (uint32_t i = 0; i < stack->depth && site < 0; i++) {
        const ss_stack_frame *f = &stack->frames[i];
        if (f->function != 0 && !after_stub(ctx, stack, i) && user_native(ctx, f))
            site = (int32_t)i;
    }
    for (uint32_t i = 0; i < stack->depth && site < 0; i++) {
        if (stack->frames[i].file != 0 && stack->frames[i].line != 0)
            site = (int32_t)i;
    }
    for (uint32_t i = 0; i < stack->depth && site < 0; i++) {
        const ss_stack_frame *f = &stack->frames[i];
        if (f->function != 0 && !is_known_library(str(ctx, f->module)))
            site = (int32_t)i;
    }
    /* Never a finding without a place: a stack of library frames only (a framework's own
     * thread, its teardown at exit) is named by its innermost function that is not CUDA's,
     * with its module and offset. */
    for (uint32_t i = 0; i < stack->depth && site < 0; i++) {
        const ss_stack_frame *f = &stack->frames[i];
        if (f->function != 0 && !cuda_frame(ctx, f))
            site = (int32_t)i;
    }
    /* The library the call went through: the innermost frame inside the call site that is
     * neither CUDA's own nor the user's (nvcc's kernel wrappers included). */
    for (int32_t i = 0; i < site; i++) {
        const ss_stack_frame *f = &stack->frames[i];
        if ((f->function != 0 || f->file != 0) && !cuda_frame(ctx, f) &&
            !after_stub(ctx, stack, (uint32_t)i) && !user_native(ctx, f)) {
            *via = i;
            break;
        }
    }
    return site;
}

int det_frame_is_user(const det_ctx *ctx, const ss_stack_frame *frame)
{
    return frame->python ? user_python(ctx, frame) : user_native(ctx, frame);
}
