"""cross_thread_app.py: the observed program of cross_thread.py. Through the fake CUPTI that
libsyncscope.so loaded, it makes one "CUDA call" on its own thread, one on a native thread
(started with pthread_create, so without Python frames of its own) that it waits for, and one
on a Python thread whose only Python frames are the threading module's (a helper thread)."""
import ctypes
import os
import threading

fake = ctypes.CDLL(os.environ["SYNCSCOPE_CUPTI_PATH"])
libc = ctypes.CDLL(None)
CALL = ctypes.c_char_p(b"cudaStreamSynchronize_v3020")


def wait_for_native_thread():
    thread = ctypes.c_ulong()
    start = ctypes.cast(fake.fake_cupti_call, ctypes.c_void_p)
    create, join = libc.pthread_create, libc.pthread_join
    # One line: the thread may make its call while this one is still in pthread_create.
    if create(ctypes.byref(thread), None, start, CALL) or join(thread, None):  # call: native thread
        raise SystemExit("pthread_create or pthread_join failed")


def start_helper_thread():
    helper = threading.Thread(target=fake.fake_cupti_call, args=(CALL,))
    helper.start()  # call: helper started
    helper.join()


def main():
    fake.fake_cupti_call(CALL)  # call: own thread
    wait_for_native_thread()  # call: caller
    start_helper_thread()
    print("done")


main()  # call: module
