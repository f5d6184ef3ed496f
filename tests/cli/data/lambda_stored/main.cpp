#include "work.h"
#include <functional>
#include <vector>
void on_devices(int n, const std::function<void(int)> &f);
void build(std::vector<std::function<void()>> &later, float **bufs, int n)
{
    std::function<void()> last;
    for (int i = 0; i < n; i++) {
        later.push_back([=] { stored(bufs[i]); }); /* stored: runs after the loop */
        last = [=] { assigned(bufs[i]); };         /* assigned; called after the loop */
        on_devices(2, [=](int d) { handed(bufs[d]); }); /* handed on: the callee may call it */
        [&] { invoked(bufs[i]); }();                        /* invoked where it is written */
        std::function<void()> step = [=] { bound(bufs[i]); };
        step(); /* kept in a local that the loop calls */
    }
    last();
}
