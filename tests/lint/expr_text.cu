// expr_text.cu: messages quote an expression as written, up to 60 bytes: a macro by its name,
// also when it is the whole argument or the end of an argument of an error-checking macro
// (CHECK(cudaMemcpy(..., 1 * ELEM, ...)) was quoted as '1 * ', a lone ONE_INT not at all), and
// names of 49 to 60 bytes (the SYNC201 and SYNC301 messages gave '...' past 48).
#include <cuda_runtime.h>

#include <vector>

#define CHECK(call) (call)
#define ONE_INT sizeof(int)
#define ELEM sizeof(float)

void sizes(int *d_flag, float *d_x)
{
    int flag = 0;
    float x = 0;
    cudaMemcpy(&flag, d_flag, ONE_INT, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: (size 'ONE_INT') back from the device into '&flag'
    CHECK(cudaMemcpy(&flag, d_flag, ONE_INT, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-message: (size 'ONE_INT') back from the device into '&flag'
    cudaMemcpy(&x, d_x, 1 * ELEM, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: (size '1 * ELEM') back from the device into '&x'
    CHECK(cudaMemcpy(&x, d_x, 1 * ELEM, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-message: (size '1 * ELEM') back from the device into '&x'
}

struct Results {
    int number_of_iterations_until_convergence_was_reached;
    int number_of_iterations_until_convergence_was_reached_in_every_run;
};

void long_names(const int *d_count, Results &r)
{
    cudaMemcpy(&r.number_of_iterations_until_convergence_was_reached, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: into '&r.number_of_iterations_until_convergence_was_reached':
    cudaMemcpy(&r.number_of_iterations_until_convergence_was_reached_in_every_run, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: into '...':
}

void pageable(float *d, cudaStream_t s, int n)
{
    std::vector<float> host_values_for_every_single_device_iteration(n);
    cudaMemcpyAsync(d, host_values_for_every_single_device_iteration.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-message: host buffer 'host_values_for_every_single_device_iteration.data()' comes from
}
