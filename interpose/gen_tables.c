/* gen_tables.c: syncscope-gen-tables [--check] SOURCE_DIR writes the generated tables of the
 * docs: the SYNCSCOPE_ variables of interpose/settings.def (docs/run.md,
 * docs/configuration.md) and the formats of report/formats.def (docs/output-formats.md), each
 * between its lines "<!-- NAME:begin -->" and "<!-- NAME:end -->". With --check it changes
 * nothing and exits 1 when a page differs from its table. */
#include "files.h"
#include "interpose.h"
#include "log.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* One generated region: the page, the region's name, and what writes its table. */
static const struct {
    const char *page;
    const char *name;
    int which; /* 0: settings, 1: settings read elsewhere, 2: formats */
} regions[] = {{"docs/run.md", "settings", 0},
               {"docs/configuration.md", "settings-elsewhere", 1},
               {"docs/output-formats.md", "formats", 2}};

/* The table of region 'which', malloc'ed. */
static char *table(int which)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (out == NULL)
        ss_out_of_memory();
    int rc = which == 2 ? ss_report_write_format_table(out)
                        : ss_interpose_write_settings_table(out, which);
    if (fclose(out) != 0 || rc != 0 || text == NULL)
        ss_out_of_memory();
    return text;
}

static int write_text(FILE *out, void *context)
{
    const char *text = context;
    return fputs(text, out) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    int check = argc == 3 && strcmp(argv[1], "--check") == 0;
    if (argc != 2 + check) {
        fprintf(stderr, "usage: syncscope-gen-tables [--check] SOURCE_DIR   (the tables of "
                        "docs/run.md, docs/configuration.md and docs/output-formats.md)\n");
        return 2;
    }
    const char *root = argv[1 + check];
    int status = 0;
    for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++) {
        char *path = ss_xasprintf("%s/%s", root, regions[i].page);
        size_t len;
        char *page = ss_read_file(path, &len);
        if (page == NULL) {
            ss_log_error("cannot read '%s': %s", path, ss_file_error());
            free(path);
            return 2;
        }
        char *content = table(regions[i].which);
        char *updated = ss_doc_region_replace(page, regions[i].name, content);
        if (updated == NULL) {
            ss_log_error("'%s' has no region <!-- %s:begin --> ... <!-- %s:end -->", path,
                         regions[i].name, regions[i].name);
            status = 2;
        } else if (strcmp(updated, page) != 0) {
            if (check) {
                ss_log_error(
                    "the %s table of '%s' is not what its rows generate: run cmake --build "
                    "BUILD --target doc-tables",
                    regions[i].name, path);
                status = status ? status : 1;
            } else if (ss_write_atomic(path, write_text, updated) != SS_WRITE_OK) {
                ss_log_error("cannot write '%s': %s", path, ss_file_error());
                status = 2;
            }
        }
        free(updated);
        free(content);
        free(page);
        free(path);
    }
    return status;
}
