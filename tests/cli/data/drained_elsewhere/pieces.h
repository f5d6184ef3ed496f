// pieces.h: a frontier that is rebuilt on the device and read back, the pieces a host method
// cuts it into, and the same pair as class templates; pieces.cu defines every method.
#include <cuda_runtime.h>
// A project operator: with it in scope, 'a - b' on a dependent type in a template is a call of
// an overloaded operator, resolved only when the template is instantiated.
struct Span {
    unsigned from, to;
};
inline unsigned operator-(Span a, Span b)
{
    return a.to - b.to;
}
// A value a template builds from arguments of dependent types: constructed when instantiated.
struct Tally {
    unsigned count;
    Tally(const void *at, unsigned n) : count(at ? n : 0)
    {
    }
};
struct Frontier {
    unsigned *d_marks, *d_list, *h_list;
    unsigned count, n;
    void rebuild(); // launches, then reads the count and the list back
    void touch();   // launches, and does not wait
    virtual void redo();
};
struct Pieces {
    unsigned count, start[8], size[8];
    void cut(const Frontier &f, unsigned cap); // host arithmetic only
};
template <class T> struct Grid {
    T *d_cells, *h_cells;
    unsigned n, live;
    void refresh(); // launches, reads the live count back, tallies it on the host
};
template <class T> struct Slicer {
    unsigned count, start[8], size[8];
    void slice(const Grid<T> &g, unsigned cap); // host arithmetic only
};
