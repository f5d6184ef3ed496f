// consumer.h: the consumer's header (not linted on its own).
#pragma once
int twice(int x);
