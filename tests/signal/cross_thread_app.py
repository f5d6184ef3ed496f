"""cross_thread_app.py: the observed program of cross_thread.py. Through the fake CUPTI that
libsyncscope.so loaded, it makes one "CUDA call" on its own thread and one on a native thread
(started with pthread_create, so without Python frames of its own) that it waits for."""
import ctypes
import os

fake = ctypes.CDLL(os.environ["SYNCSCOPE_CUPTI_PATH"])
libc = ctypes.CDLL(None)
CALL = ctypes.c_char_p(b"cudaStreamSynchronize_v3020")


def wait_for_native_thread():
    thread = ctypes.c_ulong()
    start = ctypes.cast(fake.fake_cupti_call, ctypes.c_void_p)
    if libc.pthread_create(ctypes.byref(thread), None, start, CALL) != 0:
        raise SystemExit("pthread_create failed")
    libc.pthread_join(thread, None)  # call: native thread


def main():
    fake.fake_cupti_call(CALL)  # call: own thread
    wait_for_native_thread()  # call: caller
    print("done")


main()
