/* html_page.h: the page model of the HTML report, shared by the files that build and write
 * it: html_page.c (findings, excerpts, sites, the join), html_timeline.c (lanes, operations,
 * moments), html_data.c (the data block) and html.c (the page). Private to report/. */
#ifndef SS_REPORT_HTML_PAGE_H
#define SS_REPORT_HTML_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "map.h"
#include "report.h"

/* A growable byte buffer. */
typedef struct bytes {
    unsigned char *data;
    size_t len, cap;
} bytes;

/* One finding of one input, with what the page needs beside it. */
typedef struct page_finding {
    const ss_finding *f;
    size_t proc;
    char *key;      /* normalized path (root-relative when inside the root), or NULL */
    char *resolved; /* absolute, resolved when the file exists, or NULL */
    long source;    /* index in page.sources, -1 when no excerpt */
    size_t site;
    int api; /* ss_api_id of the evidence API, SS_API_COUNT when none */
    /* Timeline moments: start, end (ns from the process start) and lane. */
    uint64_t (*occ)[3];
    size_t occ_count;
    uint64_t occ_total;
} page_finding;

typedef struct page_site {
    int group; /* SS_ORIGIN_STATIC, SS_ORIGIN_RUNTIME, or both bits */
    size_t *members;
    size_t member_count;
    size_t next_candidate; /* next lint site with the same rule, line and base name */
} page_site;

typedef struct page_source {
    char *path;     /* as shown (the key) */
    char *resolved; /* as read: resolved, inside the root, a regular file when checked */
    unsigned *lines;
    size_t line_count, line_cap;
} page_source;

/* One lane of the timeline. */
typedef struct page_lane {
    size_t proc;
    int is_stream;
    uint32_t id;    /* host thread index or CUPTI stream id */
    int key_device; /* streams: the device the id belongs to (ids repeat across devices) */
    int legacy;
    int non_blocking;
    int device;
    size_t ops;
} page_lane;

typedef struct page_op {
    uint64_t start, end, bytes;
    uint32_t lane;
    uint32_t name;
    uint8_t kind;
} page_op;

typedef struct page {
    const ss_result *const *results;
    size_t n;
    const ss_html_options *opt;
    char *root;        /* paths are shown relative to it */
    char *source_root; /* excerpts are read from inside it only; NULL: from nowhere */
    page_finding *findings;
    size_t finding_count;
    page_site *sites;
    size_t site_count, site_cap;
    page_source *sources;
    size_t source_count, source_cap;
    ss_strmap source_index;
    /* Timeline. */
    page_lane *lanes;
    size_t lane_count, lane_cap;
    uint64_t *proc_t0, *proc_span;
    uint64_t *proc_context_ns; /* the time of the call that created the context, 0: none */
    ss_strmap names;
    char **name_list;
    size_t name_count, name_cap;
    bytes blob; /* the packed columns */
    size_t col_len[5];
    size_t op_total;
    int has_trace;
} page;

/* Sets up the page for 'n' results: its root, the folder excerpts may come from, and the
 * per-process timeline figures. */
void ss_html_page_init(page *pg, const ss_result *const *results, size_t n,
                       const ss_html_options *options);
/* Normalizes every finding's path and records the source lines its excerpt needs. */
void ss_html_page_collect_findings(page *pg);
/* The join: lint and run findings with the same rule, normalized path and line are one
 * call site. A run path that is not under the root (a program built elsewhere) also joins a
 * lint finding of the same rule and line whose path is a trailing run of its components,
 * when exactly one such lint site exists. Lint findings are placed first, then run ones. */
void ss_html_page_join(page *pg);
/* Builds the timeline of every result that has a trace into pg->blob: the five columns
 * (start deltas, durations, kinds, names, bytes) one after the other. */
void ss_html_page_build_timeline(page *pg);
/* The page's data block: one JSON object that report.js reads. */
void ss_html_write_data(FILE *out, const page *pg, int compressed, size_t raw);
/* Frees what the page holds. */
void ss_html_page_free(page *pg);
/* Sets 'key' (copied) to 'value'. */
void ss_html_strmap_put(ss_strmap *m, const char *key, size_t value);
/* Whether 'shorter' equals 'longer' or is a trailing run of its path components. */
bool ss_html_component_suffix(const char *longer, const char *shorter);

#endif
