/* The host side: steps the grid; C, as the solver's callers often are. */
#include <stddef.h>

struct Grid;
struct Grid *newGrid(int cells);
void relaxGrid(struct Grid *g);
void rebin(struct Grid *g);
void reserveBins(struct Grid *g, size_t n);
void growScratch(struct Grid *g, size_t n);
void attachHalo(struct Grid *g);
void stageRows(struct Grid *g, int rows);
void seedLevel(struct Grid *g, int level);
void probeMemory(size_t bytes);
void resizeTable(size_t n);

static size_t tableCap;

static void advance(struct Grid *g, int step)
{
    relaxGrid(g);
    rebin(g);
    reserveBins(g, (size_t)step * 4);
    growScratch(g, (size_t)step * 64);
    attachHalo(g);
    stageRows(g, step % 7 + 1);
    if ((size_t)step > tableCap) {
        resizeTable((size_t)step * 2);
        tableCap = (size_t)step * 2;
    }
}

static void run(struct Grid *g, int steps)
{
    for (int step = 0; step < steps; step++)
        advance(g, step);
}

static void setupLevels(struct Grid *g, int levels)
{
    for (int level = 0; level < levels; level++) {
        relaxGrid(g);
        seedLevel(g, level);
    }
}

static void survey(int sizes)
{
    for (int s = 0; s < sizes; s++)
        probeMemory((size_t)1 << s);
}

int main(int argc, char **argv)
{
    struct Grid *g = newGrid(1024);
    setupLevels(g, argc + 3);
    run(g, argc * 100);
    survey(argc + 20);
    (void)argv;
    return 0;
}
