// broken_decl.cu: a unit with an error that declares every function of fetch.h: it may define
// one of them otherwise than fetch.cu does, unseen.
#include "fetch.h"
void report(float *host, int n) { undeclared_report(host, n); }
