// The host side: groups of neurons, stepped by run() and set up by Net::Net() and setupNet().
#include <cuda_runtime.h>

void launchStep(float *v, int *spikes, int n);
void copySpikeCount(int *host, const int *dev, int n, cudaMemcpyKind kind);
void copyPotentials(float *host, const float *dev, int n);
void copyWeights(float *dev, const float *host, int n);
void copyLabels(int *host, const int *dev, int n);

struct Group { int *hostSpikes, *devSpikes; float *hostV, *devV; int size; };

struct Net {
    Group groups[8];
    int groupCount;
    Net();
    void advance();
    void fetchSpikeCount();
    void run(int steps);
    void sample();
};

void Net::advance()
{
    for (int g = 0; g < groupCount; g++)
        launchStep(groups[g].devV, groups[g].devSpikes, groups[g].size);
}

void Net::fetchSpikeCount()
{
    for (int g = 0; g < groupCount; g++)
        copySpikeCount(groups[g].hostSpikes, groups[g].devSpikes, groups[g].size,
                       cudaMemcpyDeviceToHost);
}

void Net::run(int steps)
{
    for (int t = 0; t < steps; t++) {
        advance();
        fetchSpikeCount();
    }
}

Net::Net() : groupCount(2)
{
    for (int g = 0; g < groupCount; g++) {
        launchStep(groups[g].devV, groups[g].devSpikes, groups[g].size);
        copyPotentials(groups[g].hostV, groups[g].devV, groups[g].size);
    }
}

void setupNet(Net *net, const float *initial)
{
    for (int g = 0; g < net->groupCount; g++) {
        launchStep(net->groups[g].devV, net->groups[g].devSpikes, net->groups[g].size);
        copyWeights(net->groups[g].devV, initial, net->groups[g].size);
    }
}

void Net::sample()
{
    copyLabels(groups[0].hostSpikes, groups[0].devSpikes, groups[0].size);
}

void summarize(Net *net, int *totals)
{
    for (int g = 0; g < net->groupCount; g++)
        copyLabels(totals, net->groups[g].devSpikes, net->groups[g].size);
}
