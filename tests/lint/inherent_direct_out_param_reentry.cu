// inherent_direct_out_param_reentry.cu: where the store on the other arm of the 'if' does not
// keep a one-value readback into the caller's variable inherent (inherent_direct_out_param_branch.cu)
// because one call may still run both arms: a call that returns twice (getcontext, vfork,
// savectx, as setjmp), an OpenMP region whose threads each run the 'if' (lint reads the
// directive as a pragma it ignores; an OpenMP runtime call says the same), or a call of the
// function itself, straight or through another function, whose deeper level runs the other arm.
// And where an alias of the caller's variable made before the copy (a reference bound to it, a
// copy of the pointer, a lambda that captures it) is used after it: the function reads or
// overwrites the value through a name lint does not follow; with the 'else' store and without.
// These keep the copy's own finding. Reads before the copy that make no alias keep the note.
#include <cuda_runtime.h>
#include <omp.h>
#include <ucontext.h>
#include <unistd.h>

__global__ void settle(double *d) { d[0] = 1.5; }

struct Tally {
    unsigned seen;
    unsigned kept;
};

void show_value(double x);
extern "C" int savectx(void *at); // not every system has it

ucontext_t resumed_here;

void reread_once(double *d, double &v)
{
    volatile int visits = 0;
    getcontext(&resumed_here);
    if (visits++ == 0) {
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
        setcontext(&resumed_here);
    } else {
        v = -1.0;
    }
}

void forked_read(double *d, double &v)
{
    if (vfork() != 0)
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = -1.0;
}

char saved_at[512];

void saved_read(double *d, double &v)
{
    if (savectx(saved_at) == 0)
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = -1.0;
}

// Every thread of the team runs the 'if': one copies while the others store.
void team_read(double *d, double &v)
{
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0)
            cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
        else
            v = -1.0;
    }
}

void team_read_operator(double *d, bool lead, double &v)
{
    _Pragma("omp parallel num_threads(2)")
    {
        if (lead)
            cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
        else
            v = -1.0;
    }
}

// No directive in sight (the region is the caller's), but the function asks the runtime.
void team_member_read(double *d, double &v)
{
    if (omp_get_thread_num() == 0)
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = -1.0;
}

// The deeper call copies, then this level stores over it.
void alternate(double *d, int depth, double &v)
{
    if (depth > 0)
        alternate(d, depth - 1, v);
    if (depth & 1)
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    else
        v = -1.0;
}

void bounce_down(double *d, int depth, double &v);

void bounce_up(double *d, int depth, double &v)
{
    bounce_down(d, depth, v);
    if (depth & 1)
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    else
        v = -1.0;
}

void bounce_down(double *d, int depth, double &v)
{
    if (depth > 0)
        bounce_up(d, depth - 1, v);
}

// A reference, a pointer copied at its declaration or later, a pointer to a member, a lambda.
void renamed(double *d, bool on, double &v)
{
    double &other = v;
    if (on)
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = -1.0;
    other = 0.5;
}

void pointer_kept(double *d, bool on, double *v)
{
    double *held = v;
    if (on)
        cudaMemcpy(v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        *v = -1.0;
    *held += 1.0;
}

void pointer_assigned(double *d, bool on, double *v)
{
    double *held = nullptr;
    held = v;
    if (on)
        cudaMemcpy(v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        *v = -1.0;
    show_value(*held);
}

void member_kept(unsigned *d, bool on, Tally *t)
{
    unsigned *seen = &t->seen;
    if (on)
        cudaMemcpy(&t->seen, d, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        t->seen = 0;
    *seen *= 2;
}

void captured(double *d, bool on, double &v)
{
    auto print = [&] { show_value(v); };
    if (on)
        cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = -1.0;
    print();
}

// No 'else': the alias alone.
void renamed_plain(double *d, double &v)
{
    double &other = v;
    cudaMemcpy(&v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    other = 0.5;
}

void pointer_kept_plain(double *d, double *v)
{
    double *held = v;
    cudaMemcpy(v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    show_value(*held);
}

// Reads before the copy that make no alias: a test of the pointer, a value taken.
void checked_first(double *d, bool on, double *v)
{
    if (v == nullptr)
        return;
    double before = *v;
    show_value(before);
    if (on)
        cudaMemcpy(v, d, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the copy hands it to the caller through 'v' (it reads the value straight into the caller's variable, which the function names again only where it sets it on the other branch of the 'if' at line 192)
    else
        *v = -1.0;
}
