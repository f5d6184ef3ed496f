"""site_cache_app.py: the observed program of run_light.py's case site_cache. Through the fake
CUPTI that libsyncscope.so loaded, it makes the same "CUDA call" 20 times at one line, 5 times
at another (from a function, so with one more Python frame) and once at a third, each
blocking the host 2 ms."""
import ctypes
import os

fake = ctypes.CDLL(os.environ["SYNCSCOPE_CUPTI_PATH"])
CALL = ctypes.c_char_p(b"cudaStreamSynchronize_v3020")
fake.fake_cupti_set_call_ns(ctypes.c_long(2000000))  # each call blocks 2 ms


def helper():
    for _ in range(5):
        fake.fake_cupti_call(CALL)  # site: helper


def main():
    for _ in range(20):
        fake.fake_cupti_call(CALL)  # site: loop
    helper()
    fake.fake_cupti_call(CALL)  # site: once
    print("done")


main()
