// constant_iterator.h: part of the lint tests' Thrust stand-in.
#pragma once
#include "../detail/lint_stub.h"
