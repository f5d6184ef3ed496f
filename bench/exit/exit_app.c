/* exit_app.c: the observed program of the exit-time benchmark (bench/exit/run.sh). Without a
 * GPU it makes "CUDA calls" through the stand-in for libcupti of tests/signal (fake_cupti.c,
 * loaded by libsyncscope.so through SYNCSCOPE_CUPTI_PATH) from deep inside large shared
 * libraries, so that the finisher has many distinct call stacks to symbolize in modules with
 * big symbol tables, as in a PyTorch process (libtorch_cpu, libtorch_cuda, libcudart, ...):
 *   - LLVM's optimizer (libLLVM-16, about 48,000 dynamic symbols) runs the O2 pipeline on a
 *     generated module with optimization remarks on; every remark reaches a diagnostic
 *     handler that makes a synchronizing call, from inside whichever pass emitted it;
 *   - libclang (libclang-16, its own code hidden) parses a generated C++ file, indexes it and
 *     visits its cursors; its callbacks make synchronizing calls from inside its walks;
 *   - qsort (libc) sorts with a comparator that makes a call now and then.
 * Usage: exit_app [SCALE]   (SCALE, default 1, multiplies the generated code); without
 * SYNCSCOPE_CUPTI_PATH it runs bare, its calls doing nothing.
 * It prints how many calls it made; exit status 0, 2 when the fake CUPTI or a library is
 * missing. */
#include <clang-c/Index.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int (*fake_call)(const char *name);
static unsigned long calls;

/* The calls of a bare run (no SYNCSCOPE_CUPTI_PATH): nothing to observe them. */
static int no_call(const char *name)
{
    (void)name;
    return 0;
}

/* Finds fake_cupti_call in the fake CUPTI that the interposer loaded; exits 2 without it. */
static void find_fake(void)
{
    const char *path = getenv("SYNCSCOPE_CUPTI_PATH");
    if (path == NULL) {
        fake_call = no_call;
        return;
    }
    void *fake = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (fake != NULL)
        *(void **)&fake_call = dlsym(fake, "fake_cupti_call");
    if (fake_call == NULL) {
        fprintf(stderr, "exit_app: the fake CUPTI is not loaded (SYNCSCOPE_CUPTI_PATH, "
                        "LD_PRELOAD)\n");
        exit(2);
    }
}

static const char *const sync_names[] = {"cudaDeviceSynchronize_v3020",
                                         "cudaStreamSynchronize_v3020"};

static void call_failed(void)
{
    fprintf(stderr, "exit_app: fake_cupti_call failed\n");
    exit(2);
}

/* One synchronizing "CUDA call" from wherever it is written: a macro, so that each place is a
 * call site (a finding) of its own. */
#define SYNC_CALL(which)                                                                           \
    do {                                                                                           \
        if (fake_call(sync_names[(which)&1]) != 0)                                                 \
            call_failed();                                                                         \
        calls++;                                                                                   \
    } while (0)

/* A growing text buffer. */
typedef struct text {
    char *data;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->data + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            exit(2);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->data = realloc(t->data, t->cap);
        if (t->data == NULL)
            exit(2);
    }
}

/* ---- LLVM: optimization remarks from the O2 pipeline ---- */

typedef void *llvm_ref;
typedef void (*llvm_diag_handler)(llvm_ref info, void *context);

typedef struct llvm_api {
    llvm_ref (*context_create)(void);
    void (*set_diag_handler)(llvm_ref context, llvm_diag_handler handler, void *data);
    void (*parse_options)(int argc, const char *const *argv, const char *overview);
    llvm_ref (*buffer_copy)(const char *data, size_t len, const char *name);
    int (*parse_ir)(llvm_ref context, llvm_ref buffer, llvm_ref *module, char **message);
    llvm_ref (*pass_options)(void);
    llvm_ref (*run_passes)(llvm_ref module, const char *passes, llvm_ref machine, llvm_ref options);
    void (*dispose_module)(llvm_ref module);
    void (*dispose_context)(llvm_ref context);
} llvm_api;

static void on_remark(llvm_ref info, void *context)
{
    (void)info;
    (void)context;
    SYNC_CALL(0);
}

/* A module of 'count' groups of functions: a small leaf called in a loop (inlining, loop
 * remarks), a float reduction (vectorizer remarks), a call to an unknown function (missed
 * inlining), a loop with a loop-invariant load (LICM). */
static void llvm_module(text *ir, int count)
{
    add(ir, "declare i32 @opaque(i32)\n");
    for (int i = 0; i < count; i++) {
        add(ir,
            "define internal i32 @leaf%d(i32 %%x) {\n"
            "  %%a = mul i32 %%x, %d\n  %%b = add i32 %%a, %d\n  ret i32 %%b\n}\n",
            i, i + 3, i);
        add(ir,
            "define i32 @map%d(ptr %%p, ptr %%q, i32 %%n) {\n"
            "entry:\n  %%c0 = icmp sgt i32 %%n, 0\n  br i1 %%c0, label %%loop, label %%exit\n"
            "loop:\n  %%j = phi i32 [0, %%entry], [%%jn, %%loop]\n"
            "  %%acc = phi i32 [0, %%entry], [%%accn, %%loop]\n"
            "  %%jx = sext i32 %%j to i64\n"
            "  %%pp = getelementptr inbounds i32, ptr %%p, i64 %%jx\n"
            "  %%v = load i32, ptr %%pp\n  %%l = call i32 @leaf%d(i32 %%v)\n"
            "  %%qq = getelementptr inbounds i32, ptr %%q, i64 %%jx\n"
            "  store i32 %%l, ptr %%qq\n  %%accn = add i32 %%acc, %%l\n"
            "  %%jn = add nsw i32 %%j, 1\n  %%c = icmp slt i32 %%jn, %%n\n"
            "  br i1 %%c, label %%loop, label %%exit\n"
            "exit:\n  %%r = phi i32 [0, %%entry], [%%accn, %%loop]\n  ret i32 %%r\n}\n",
            i, i);
        add(ir,
            "define float @sum%d(ptr %%p, i64 %%n) {\n"
            "entry:\n  br label %%loop\n"
            "loop:\n  %%j = phi i64 [0, %%entry], [%%jn, %%loop]\n"
            "  %%s = phi float [0.0, %%entry], [%%sn, %%loop]\n"
            "  %%pp = getelementptr inbounds float, ptr %%p, i64 %%j\n"
            "  %%v = load float, ptr %%pp\n  %%sn = fadd float %%s, %%v\n"
            "  %%jn = add nuw i64 %%j, 1\n  %%c = icmp ult i64 %%jn, %%n\n"
            "  br i1 %%c, label %%loop, label %%exit\n"
            "exit:\n  ret float %%sn\n}\n",
            i);
        add(ir,
            "define i32 @hoist%d(ptr %%p, ptr %%k, i32 %%n) {\n"
            "entry:\n  br label %%loop\n"
            "loop:\n  %%j = phi i32 [0, %%entry], [%%jn, %%loop]\n"
            "  %%acc = phi i32 [0, %%entry], [%%accn, %%loop]\n"
            "  %%kv = load i32, ptr %%k\n  %%o = call i32 @opaque(i32 %%kv)\n"
            "  %%accn = add i32 %%acc, %%o\n  %%jn = add i32 %%j, 1\n"
            "  %%c = icmp slt i32 %%jn, %%n\n  br i1 %%c, label %%loop, label %%exit\n"
            "exit:\n  ret i32 %%accn\n}\n",
            i);
    }
}

static int llvm_workload(int scale)
{
    void *lib = dlopen("libLLVM-16.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (lib == NULL) {
        fprintf(stderr, "exit_app: %s\n", dlerror());
        return -1;
    }
    llvm_api api;
    struct {
        void **slot;
        const char *name;
    } symbols[] = {
        {(void **)&api.context_create, "LLVMContextCreate"},
        {(void **)&api.set_diag_handler, "LLVMContextSetDiagnosticHandler"},
        {(void **)&api.parse_options, "LLVMParseCommandLineOptions"},
        {(void **)&api.buffer_copy, "LLVMCreateMemoryBufferWithMemoryRangeCopy"},
        {(void **)&api.parse_ir, "LLVMParseIRInContext"},
        {(void **)&api.pass_options, "LLVMCreatePassBuilderOptions"},
        {(void **)&api.run_passes, "LLVMRunPasses"},
        {(void **)&api.dispose_module, "LLVMDisposeModule"},
        {(void **)&api.dispose_context, "LLVMContextDispose"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(lib, symbols[i].name);
        if (*symbols[i].slot == NULL) {
            fprintf(stderr, "exit_app: libLLVM-16 has no %s\n", symbols[i].name);
            return -1;
        }
    }
    static const char *const options[] = {"exit_app", "-pass-remarks=.*", "-pass-remarks-missed=.*",
                                          "-pass-remarks-analysis=.*"};
    api.parse_options(4, options, NULL);
    llvm_ref context = api.context_create();
    api.set_diag_handler(context, on_remark, NULL);
    text ir = {0};
    llvm_module(&ir, 40 * scale);
    llvm_ref module = NULL;
    char *message = NULL;
    if (api.parse_ir(context, api.buffer_copy(ir.data, ir.len, "bench"), &module, &message) != 0) {
        fprintf(stderr, "exit_app: the generated IR does not parse: %s\n",
                message != NULL ? message : "?");
        return -1;
    }
    free(ir.data);
    if (api.run_passes(module, "default<O2>", NULL, api.pass_options()) != NULL) {
        fprintf(stderr, "exit_app: LLVMRunPasses failed\n");
        return -1;
    }
    api.dispose_module(module);
    api.dispose_context(context);
    return 0;
}

/* ---- libclang: indexing callbacks from inside the parser ---- */

static void on_declaration(CXClientData data, const CXIdxDeclInfo *info)
{
    (void)data;
    (void)info;
    SYNC_CALL(1);
}

static void on_reference(CXClientData data, const CXIdxEntityRefInfo *info)
{
    (void)data;
    (void)info;
    SYNC_CALL(0);
}

static CXIdxClientFile on_include(CXClientData data, const CXIdxIncludedFileInfo *info)
{
    (void)data;
    (void)info;
    SYNC_CALL(1);
    return NULL;
}

/* C++ with classes, templates, lambdas, nested namespaces and overloads: the parser reaches
 * the index callbacks through many different paths. */
static void cxx_source(text *src, int count)
{
    add(src, "#include <stddef.h>\n");
    for (int i = 0; i < count; i++) {
        add(src,
            "namespace n%d { namespace inner {\n"
            "template <typename T, int N> struct box%d { T items[N]; T sum() const { T s{}; "
            "for (int k = 0; k < N; k++) s += items[k]; return s; } };\n"
            "struct base%d { virtual ~base%d() = default; virtual int run(int x) { return x + "
            "%d; } };\n"
            "struct derived%d : base%d { int run(int x) override { return base%d::run(x) * 2; } "
            "};\n"
            "enum class mode%d { a, b, c };\n"
            "inline int pick%d(mode%d m) { switch (m) { case mode%d::a: return 1; case "
            "mode%d::b: return 2; default: return 3; } }\n"
            "} }\n"
            "int use%d(int x) { n%d::inner::box%d<float, 4> b{}; n%d::inner::derived%d d; auto "
            "f = [&](int y) { return d.run(y) + (int)b.sum(); }; return f(x) + "
            "n%d::inner::pick%d(n%d::inner::mode%d::b); }\n",
            i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i);
    }
}

/* Visits every cursor; a call at every declaration, from libclang's own recursion. */
static enum CXChildVisitResult visit(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    (void)data;
    if (clang_isDeclaration(clang_getCursorKind(cursor)))
        SYNC_CALL(0);
    return CXChildVisit_Recurse;
}

static int clang_workload(int scale)
{
    text src = {0};
    cxx_source(&src, 30 * scale);
    struct CXUnsavedFile file = {"bench_index.cpp", src.data, (unsigned long)src.len};
    static const char *const args[] = {"-std=c++17", "-xc++"};
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit unit = NULL;
    int rc = clang_parseTranslationUnit2(index, "bench_index.cpp", args, 2, &file, 1, 0, &unit);
    if (rc == 0) {
        /* libclang's indexer walks the unit (clang_indexSourceFile, which would call back from
         * inside the parser, crashes in libclang 16 after its first callbacks). */
        CXIndexAction action = clang_IndexAction_create(index);
        IndexerCallbacks callbacks;
        memset(&callbacks, 0, sizeof callbacks);
        callbacks.indexDeclaration = on_declaration;
        callbacks.indexEntityReference = on_reference;
        callbacks.ppIncludedFile = on_include;
        rc = clang_indexTranslationUnit(action, NULL, &callbacks, sizeof callbacks, 0, unit);
        clang_IndexAction_dispose(action);
        clang_visitChildren(clang_getTranslationUnitCursor(unit), visit, NULL);
        clang_disposeTranslationUnit(unit);
    }
    clang_disposeIndex(index);
    free(src.data);
    if (rc != 0)
        fprintf(stderr, "exit_app: libclang returned %d\n", rc);
    return rc == 0 ? 0 : -1;
}

/* ---- libc: a comparator that calls now and then ---- */

static int compare(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if ((x ^ y) % 97 == 0)
        SYNC_CALL(x);
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    if (scale < 1 || scale > 100) {
        fprintf(stderr, "usage: exit_app [SCALE 1-100]\n");
        return 2;
    }
    find_fake();
    int values[4096];
    for (int i = 0; i < 4096; i++)
        values[i] = (i * 7919) % 4099;
    qsort(values, 4096, sizeof values[0], compare);
    const char *only = getenv("EXIT_APP_ONLY");
    if ((only == NULL || strcmp(only, "llvm") == 0) && llvm_workload(scale) < 0)
        return 2;
    if ((only == NULL || strcmp(only, "clang") == 0) && clang_workload(scale) < 0)
        return 2;
    printf("exit_app: %lu calls\n", calls);
    return 0;
}
