// inherent_caller_reads_last_copy.cu: a decode step whose last statement copies the scores back
// to the host (synchronously) into a buffer its caller can name (a member of the state the caller
// passes, a global, the pointer it is given), where every call of the step in the unit is
// followed at once by a read of that buffer (the next token is picked from it): the copy's wait is
// for the data the host needs next, as where the copy is written in the caller's loop. Inherent, a
// note. Warnings stay where one caller does not read the buffer next, where the step queues work
// after its copy, where the caller reads another buffer (another member, another state's), and
// where the step's address is taken (it may be called from anywhere).
#include <cuda_runtime.h>
#include <cstdlib>

struct State {
    float *scores_gpu;
    float *scores;
    float *probs;
};

__global__ void score(float *out, int token, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)((i * 7 + token) % 13);
}

static int pick(const float *v, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[best])
            best = i;
    return best;
}

static float *scores_gpu, *scores_host;

// A member of the state the caller passes.
void step(int token, State *s, int n)
{
    score<<<(n + 255) / 256, 256>>>(s->scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(s->scores, s->scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: inherent: the next statement needs the value: 'step()' ends with this copy into 'scores', and every call of it in the unit is followed by a read of it (the call at inherent_caller_reads_last_copy.cu:
}

// A global buffer.
void step_global(int token, int n)
{
    score<<<(n + 255) / 256, 256>>>(scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(scores_host, scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: 'step_global()' ends with this copy into 'scores_host'
}

// The pointer it is given.
void step_into(int token, float *out, int n)
{
    score<<<(n + 255) / 256, 256>>>(scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(out, scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: 'step_into()' ends with this copy into 'out'
}

// The copy written in the loop: the rule the ones above follow.
void generate_local(int n, int steps)
{
    int token = 1;
    for (int pos = 0; pos < steps; pos++) {
        score<<<(n + 255) / 256, 256>>>(scores_gpu, token, n); // expect: SYNC101
        cudaMemcpy(scores_host, scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: inherent: the next statement needs the value (line
        token = pick(scores_host, n);
    }
}

// Called twice; the second caller does not read the scores next: a warning.
void step_twice(int token, State *s, int n)
{
    score<<<(n + 255) / 256, 256>>>(s->scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(s->scores, s->scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
}

// Work after the copy: the copy is not the step's last work, a warning.
void step_then_launch(int token, State *s, int n)
{
    score<<<(n + 255) / 256, 256>>>(s->scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(s->scores, s->scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    score<<<(n + 255) / 256, 256>>>(s->probs, token, n); // expect: SYNC101
}

// The caller reads another member: a warning.
void step_other_member(int token, State *s, int n)
{
    score<<<(n + 255) / 256, 256>>>(s->scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(s->scores, s->scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
}

// The caller reads another state's scores: a warning.
void step_other_state(int token, State *s, int n)
{
    score<<<(n + 255) / 256, 256>>>(s->scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(s->scores, s->scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
}

// Its address is taken: it may be called from anywhere, a warning.
void step_pointed(int token, State *s, int n)
{
    score<<<(n + 255) / 256, 256>>>(s->scores_gpu, token, n); // expect: SYNC101
    cudaMemcpy(s->scores, s->scores_gpu, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
}

void (*step_hook)(int, State *, int) = step_pointed;

void generate(State *st, State *other, float *out, int n, int steps)
{
    int token = 1;
    for (int pos = 0; pos < steps; pos++) {
        step(token, st, n);
        token = pick(st->scores, n);
        step_global(token, n);
        token = pick(scores_host, n);
        step_into(token, out, n);
        token = pick(out, n);
        step_twice(token, st, n);
        token = pick(st->scores, n);
        step_then_launch(token, st, n);
        token = pick(st->scores, n);
        step_other_member(token, st, n);
        token = pick(st->probs, n);
        step_other_state(token, st, n);
        token = pick(other->scores, n);
        step_pointed(token, st, n);
        token = pick(st->scores, n);
    }
    for (int pos = 0; pos < steps; pos++)
        step_twice(pos, st, n);
}
