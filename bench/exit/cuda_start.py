"""cuda_start.py: the smallest Python process that uses CUDA, for what a mode of syncscope adds to
a process once, whatever it runs (docs/studies/performance.md, "Modes"): loading the library
and CUPTI, subscribing, reading the Python stack at a call, and the exit.

  python3 cuda_start.py

Through the driver API by ctypes (no PyTorch: its import would be most of the process): cuInit,
device 0's primary context made current, one cuCtxSynchronize (a call the light mode takes,
with its stack), then exit. Prints "cuda_start: ok"; exit status 1 with the failing call named.
"""
import ctypes
import sys


def main():
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as problem:
        sys.exit(f"cuda_start.py: no CUDA driver: {problem}")

    def call(name, *args):
        status = getattr(cuda, name)(*args)
        if status != 0:
            sys.exit(f"cuda_start.py: {name} returned {status}")

    device = ctypes.c_int()
    context = ctypes.c_void_p()
    call("cuInit", 0)
    call("cuDeviceGet", ctypes.byref(device), 0)
    call("cuDevicePrimaryCtxRetain", ctypes.byref(context), device)
    call("cuCtxSetCurrent", context)
    call("cuCtxSynchronize")
    print("cuda_start: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
