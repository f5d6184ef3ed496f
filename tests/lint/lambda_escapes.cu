// lambda_escapes.cu: a call made in a lambda runs when the lambda is called, not where it is
// written. A lambda that a function returns, passes on or stores may be called any number of
// times (a beam search calling the function a factory returned, on every step), so a function
// reached from it does not run once even when the function that writes the lambda does
// ('create...', 'init...', 'setup'): it keeps the rule's own severity, and the message says
// how often it runs is unknown and why. Still notes ("runs once"): a lambda invoked where it is
// written or bound to a local that the function only calls, outside loops, and the same
// function called outside any lambda of a function that runs once. A local the lambda is bound
// to and that is passed on lets it escape.
#include <cuda_runtime.h>
#include <vector>

struct Selector {
    int *d_rows = nullptr;
    cudaStream_t s = 0;

    void upload(const std::vector<int> &rows)
    {
        cudaMemcpyAsync(d_rows, rows.data(), rows.size() * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning expect-message: how often it runs is unknown: 'Selector::upload' is reached from a lambda that 'createSelectFn' returns (lambda_escapes.cu:36), through 'Selector::select'
    }

    void select(const std::vector<int> &rows, int n)
    {
        upload(rows);
        (void)n;
    }
};

struct SelectFn {
    template <typename F> SelectFn(F f) : call(f) {}
    void (*call)(Selector *, const std::vector<int> &);
};

SelectFn createSelectFn()
{
    return SelectFn([](Selector *sel, const std::vector<int> &rows) { sel->select(rows, 4); });
}

static void copy_rows(int *d, const std::vector<int> &rows, cudaStream_t s)
{
    cudaMemcpyAsync(d, rows.data(), rows.size() * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning expect-message: how often it runs is unknown: 'copy_rows' is called from a lambda that 'initHandlers' passes to 'add_handler()' (lambda_escapes.cu:48)
}

void add_handler(void (*handler)(int *, const std::vector<int> &, cudaStream_t));

void initHandlers()
{
    add_handler([](int *d, const std::vector<int> &rows, cudaStream_t s) { copy_rows(d, rows, s); });
}

static void copy_once(int *d, const std::vector<int> &rows, cudaStream_t s)
{
    cudaMemcpyAsync(d, rows.data(), rows.size() * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: it runs once: outside any loop, and 'copy_once' is called only outside loops, from functions that run once
}

static void copy_direct(int *d, const std::vector<int> &rows, cudaStream_t s)
{
    cudaMemcpyAsync(d, rows.data(), rows.size() * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: it runs once: outside any loop, and 'copy_direct' is called once, from 'setupRows'
}

static void copy_bound(int *d, const std::vector<int> &rows, cudaStream_t s)
{
    cudaMemcpyAsync(d, rows.data(), rows.size() * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: it runs once: outside any loop, and 'copy_bound' is called once, from 'setupRows'
}

static void copy_kept(int *d, const std::vector<int> &rows, cudaStream_t s)
{
    cudaMemcpyAsync(d, rows.data(), rows.size() * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning expect-message: how often it runs is unknown: 'copy_kept' is called from a lambda that 'setupRows' stores in 'kept'
}

void keep(void (*task)(int *, const std::vector<int> &, cudaStream_t));

void setupRows(int *d, cudaStream_t s)
{
    std::vector<int> rows(8, 1);
    [&] { copy_once(d, rows, s); }();
    copy_direct(d, rows, s);
    [&]() { copy_once(d, rows, s); }();
    auto bound = [&] { copy_bound(d, rows, s); };
    bound();
    auto kept = [](int *to, const std::vector<int> &from, cudaStream_t on) { copy_kept(to, from, on); };
    keep(kept);
}
