void level(int *d, int *h);
void level_launch(int *d, int *h);
void run(int *d, int *h)
{
    for (int l = 5; l >= 0; --l) {
        level(d, h);
        level_launch(d, h);
    }
}
