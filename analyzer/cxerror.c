/* cxerror.c: libclang error codes in words, for messages. */
#include "tu.h"

const char *ss_cx_error_words(enum CXErrorCode code)
{
    switch (code) {
    case CXError_Success:
        return "success";
    case CXError_Failure:
        return "libclang failed to parse the file (unreadable file or bad arguments)";
    case CXError_Crashed:
        return "libclang crashed while parsing the file";
    case CXError_InvalidArguments:
        return "libclang rejected the parse arguments";
    case CXError_ASTReadError:
        return "libclang could not read a serialized AST";
    }
    return "unknown libclang error";
}
