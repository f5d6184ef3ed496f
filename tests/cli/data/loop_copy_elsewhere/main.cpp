// The program: sets the network up, runs it, samples it once.
struct Net {
    char space[512];
    Net();
    void run(int steps);
    void sample();
};
void setupNet(Net *net, const float *initial);
void summarize(Net *net, int *totals);

int main()
{
    static float initial[128];
    static int totals[128];
    Net net;
    setupNet(&net, initial);
    for (int epoch = 0; epoch < 10; epoch++)
        net.run(1000);
    net.sample();
    summarize(&net, totals);
    return 0;
}
