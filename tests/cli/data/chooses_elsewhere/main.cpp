// The loop that renders a frame of render.cu on every iteration.
bool frame(int i);
int main()
{
    int i = 0;
    while (frame(i++)) {
    }
    return 0;
}
