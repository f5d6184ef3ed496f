/* helper_functions.h: stands for cuda-samples' Common/helper_functions.h, of which the two
 * samples use only what helper_cuda.h and helper_string.h declare here. */
#ifndef SS_SHIM_HELPER_FUNCTIONS_H
#define SS_SHIM_HELPER_FUNCTIONS_H

#include "helper_string.h"

#endif
