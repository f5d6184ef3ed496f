// once_name_calibrate.cu: a function whose name has a word that starts with 'calibrat' runs
// once, before the work (NEST GPU's SynGroupCalibrate uploads the synapse groups' table before
// the simulation): outside its loops, a pageable upload is a note. A word that only holds the
// stem further in ('Recalibrated') is no such word, and a loop inside such a function still
// runs per iteration.
#include <cuda_runtime.h>

__global__ void init_groups(int *t, int n) {}

int SynGroupCalibrate(int *d_map, int n, cudaStream_t s)
{
    int *h_map = new int[n];
    for (int i = 0; i < n; i++)
        h_map[i] = i;
    cudaMemcpyAsync(d_map, h_map, n * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: 'SynGroupCalibrate' sets up, checks or tears down (its name says so)
    init_groups<<<1, 1, 0, s>>>(d_map, n);
    cudaStreamSynchronize(s);
    delete[] h_map;
    return 0;
}

int StepRecalibrated(int *d_map, int n, cudaStream_t s)
{
    int *h_map = new int[n];
    cudaMemcpyAsync(d_map, h_map, n * sizeof(int), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    init_groups<<<1, 1, 0, s>>>(d_map, n);
    delete[] h_map;
    return 0;
}

void CalibrateSensors(int *d_map, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        init_groups<<<1, 1, 0, s>>>(d_map, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
