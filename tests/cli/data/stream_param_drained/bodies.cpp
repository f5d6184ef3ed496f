// bodies.cpp: host-only helpers of the floating bodies (no device work).
#include "kernels.h"

float Radius(unsigned body) { return 0.5f * (float)(body + 1); }
