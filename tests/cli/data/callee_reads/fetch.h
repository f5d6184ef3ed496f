// fetch.h: what fetch.cu, fetch_launch.cu, async.cu, weak.cu, broken.cu and reduce.cu define.
#pragma once
#include <cuda_runtime.h>
void read_back(float *host, const float *dev, int n);
void read_either(float *host, float *dev, int n, bool up);
void read_if(float *host, const float *dev, int n, bool fresh);
void launch_then_read(float *host, float *dev, int n);
void read_async(float *host, const float *dev, int n);
void read_twice(float *host, float *dev, int n);
void read_weak(float *host, const float *dev, int n);
void read_broken(float *host, const float *dev, int n);
void finish(float *host, float *dev, int n);
void read_checked(float *host, const float *dev, int n);
void read_counted(float *host, const float *dev);
