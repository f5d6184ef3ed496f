/* internal.h: every private header of the analyzer, for its unit tests and the fuzz target;
 * the analyzer's own files include only the headers of the concerns they use. */
#ifndef SS_ANALYZER_INTERNAL_H
#define SS_ANALYZER_INTERNAL_H

#include "analyzer.h"
#include "ast.h"
#include "cache.h"
#include "checks.h"
#include "checks/common.h"
#include "compdb.h"
#include "dataflow.h"
#include "flag_table.h"
#include "flags.h"
#include "jobs.h"
#include "scope.h"
#include "stack.h"
#include "tu.h"

#endif
