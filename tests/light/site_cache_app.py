"""site_cache_app.py: the observed program of run_light.py's case site_cache. Through the fake
CUPTI that libsyncscope.so loaded, it makes the same "CUDA call" 20 times at one line, 5 times
at another (from a function, so with one more Python frame) and once at a third; then two
calls in turn at one line (cudaStreamSynchronize and cudaDeviceSynchronize, twice each: two
sites), and the helper's call 3 times from a thread of its own (its own site cache). Each call
blocks the host 2 ms."""
import ctypes
import os
import threading

fake = ctypes.CDLL(os.environ["SYNCSCOPE_CUPTI_PATH"])
CALL = ctypes.c_char_p(b"cudaStreamSynchronize_v3020")
OTHER = ctypes.c_char_p(b"cudaDeviceSynchronize_v3020")
fake.fake_cupti_set_call_ns(ctypes.c_long(2000000))  # each call blocks 2 ms


def helper(times):
    for _ in range(times):
        fake.fake_cupti_call(CALL)  # site: helper


def main():
    for _ in range(20):
        fake.fake_cupti_call(CALL)  # site: loop
    helper(5)
    fake.fake_cupti_call(CALL)  # site: once
    for i in range(4):
        fake.fake_cupti_call(CALL if i % 2 == 0 else OTHER)  # site: two calls
    thread = threading.Thread(target=helper, args=(3,))
    thread.start()
    thread.join()
    print("done")


main()
