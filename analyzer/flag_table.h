/* flag_table.h: the tables of flag translation (flag_table.c), as flags.c reads them: why an
 * argument is dropped, how an option takes its value, what an nvcc option becomes, and the
 * lookups over the tables. Private to flags.c and flag_table.c. */
#ifndef SS_ANALYZER_FLAG_TABLE_H
#define SS_ANALYZER_FLAG_TABLE_H

#include <stddef.h>

/* Why an argument was dropped, in words for the --verbose line. */
typedef enum drop_why {
    WHY_UNNEEDED,
    WHY_WRITES,
    WHY_LOADS,
    WHY_PASSES,
    WHY_OPTIONS_FILE,
    WHY_WARNINGS,
    WHY_PCH,
    WHY_TOOLKIT,
    WHY_ARCH,
    WHY_STD_FOR_C,
    WHY_STD_FOR_CXX,
    WHY_REMOVED,
    WHY_INPUT,
    WHY_NO_VALUE,
    WHY_OPENMP
} drop_why;

/* How an option is spelled with its value. */
typedef enum opt_form {
    FORM_FLAG,            /* exactly NAME */
    FORM_PREFIX,          /* any argument that starts with NAME (NAME often ends in '=') */
    FORM_PREFIX_SEPARATE, /* an argument that starts with NAME, and the next one (-Xarch_host X) */
    FORM_JOINED_OR_SEPARATE, /* NAMEVALUE, or NAME VALUE */
    FORM_SEPARATE            /* NAME VALUE, or NAME=VALUE */
} opt_form;

/* What to do with an nvcc option (or a clang option with a translation). */
typedef enum flag_action {
    ACT_LANG,           /* -x LANG: recorded; the analyzer adds its own -x */
    ACT_GENCODE,        /* -gencode arch=compute_80,code=sm_80 -> --cuda-gpu-arch=sm_80 */
    ACT_ARCH,           /* -arch sm_80 -> --cuda-gpu-arch=sm_80 */
    ACT_XCOMPILER,      /* -Xcompiler a,b -> a b (each translated again) */
    ACT_DEFAULT_STREAM, /* --default-stream per-thread -> per-thread mode */
    ACT_RDC,            /* -rdc=true, -dc -> -fgpu-rdc (relocatable device code) */
    ACT_RENAME,         /* 'clang' with the value joined to it, then checked like any argument */
    ACT_DROP            /* dropped with its value, for the reason 'why' */
} flag_action;

typedef struct flag_rule {
    const char *name; /* as written, e.g. "-gencode" or "--gpu-architecture" */
    int takes_value;  /* 1: "NAME VALUE" or "NAME=VALUE" */
    flag_action action;
    const char *clang; /* ACT_RENAME: the clang option the value is joined to */
    drop_why why;      /* ACT_DROP */
} flag_rule;

/* The allow-list: what passes (besides -W warnings and the -f, -m and -O lists below). */
typedef struct allowed_option {
    const char *name;
    opt_form form;
    int path;              /* the value is a path: a relative one is joined to the directory */
    const char *canonical; /* value options: passed on as CANONICAL+VALUE (NULL: NAME+VALUE) */
} allowed_option;

/* 'why' in words, for the --verbose line. */
const char *ss_flag_why_words(drop_why why);
/* The row of the translation table that 'arg' names, as NAME or as NAME=VALUE for a row
 * that takes a value (then *inline_value points at VALUE), or NULL. */
const flag_rule *ss_flag_rule_find(const char *arg, const char **inline_value);
/* Whether argv[i] is the option 'name' written in 'form'. Sets *value (NULL for flags and
 * prefixes, and when a separate value is missing) and *used (how many arguments it spans). */
int ss_flag_match(const char *const *argv, size_t count, size_t i, const char *name, opt_form form,
                  const char **value, size_t *used);
/* Whether argv['i'] is an option dropped for a reason worth saying (looked at before the
 * allow-list): sets *used (how many arguments it spans, its value included) and *why.
 * Returns 1 or 0. */
int ss_flag_denied(const char *const *argv, size_t count, size_t i, size_t *used, drop_why *why);
/* The row of the allow-list that argv['i'] matches, with *value and *used as ss_flag_match
 * sets them, or NULL. */
const allowed_option *ss_flag_allowed_find(const char *const *argv, size_t count, size_t i,
                                           const char **value, size_t *used);
/* Whether --remove-arg 'pattern' names 'arg': the same argument; for a pattern ending in
 * '*', any argument that starts with the rest; for an option, also its NAME=VALUE form and,
 * for an option that takes a value, its joined form (-I removes -Ifoo). */
int ss_flag_pattern_matches(const char *pattern, const char *arg);
/* The number NN of an architecture named "sm_NN" or "compute_NN" ('len' bytes), when clang
 * 16 knows it; else 0. */
int ss_flag_known_sm(const char *name, size_t len);
/* Whether 'arg' is a -W warning option. (-Wp, -Wl, -Wa and -Werror are denied before the
 * allow-list is consulted.) */
int ss_flag_is_warning(const char *arg);
/* Whether 'arg' is -mFEATURE or -mno-FEATURE for a known instruction-set feature, or an
 * -mavx512... feature. */
int ss_flag_is_m_feature(const char *arg);
/* Whether the cc1 option 'cc1' passes after -Xclang. */
int ss_flag_cc1_allowed(const char *cc1);
/* Whether the cc1 option 'cc1' takes its value as the next -Xclang argument; sets *why, why
 * it is dropped. */
int ss_flag_cc1_valued(const char *cc1, drop_why *why);
/* Whether the cc1 option 'cc1', without a value, writes files. */
int ss_flag_cc1_writes(const char *cc1);

#endif
