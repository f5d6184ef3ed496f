// A model whose workspace is made on first use: main.cpp makes a new one on every step.
#pragma once
struct Model {
    float *workspace = nullptr;
    void forward(float *x, int n);
};
