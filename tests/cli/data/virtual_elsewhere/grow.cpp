#include "builder.h"

Builder::Builder(int n)
{
    for (int i = 0; i < n; i++)
        refresh();
}

void Builder::refresh() {}

void Builder::grow(int depth, int devices)
{
    for (int level = 0; level < depth; ++level) {
        on_devices(devices, [&](int device) {
            split(level, device);
            gather(data);
        });
        this->regroup();
        Builder::prune();
        mark();
        settle();
    }
    report();
}

void Builder::init(int devices)
{
    for (int d = 0; d < devices; d++)
        load();
}

void Builder::prune() {}

Sweep::Sweep(Builder *b, int n)
{
    for (int i = 0; i < n; i++)
        b->sweep();
}

void drive(Exact *e, int n)
{
    for (int i = 0; i < n; i++)
        e->tally();
}

void by_value(int n)
{
    Exact e(1);
    for (int i = 0; i < n; i++)
        e.pack();
}

void sealed(Exact *e, int n)
{
    for (int i = 0; i < n; i++)
        e->seal();
}
