/* capture_timing.c: SYNCSCOPE_TIMING's lines of the capture side (docs/run.md): what the start
 * took, syncscope's own time in the callbacks (the stacks apart), and the sampled mode's
 * windows' opening and closing. The counters are the threads' own (no lock) and the
 * flusher's; they are summed and printed here, at the start and at the end of the run. */
#include "capture_int.h"

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

void capture_timing_start_line(void)
{
    if (!proc.config.timing)
        return;
    const capture_start_timing *s = &proc.start_timing;
    capture_say("start timing: settings and CUPTI loaded %.1f ms, subscribed and callbacks "
                "enabled %.1f ms, the rest %.1f ms%s",
                ms(s->load_ns), ms(s->subscribe_ns), ms(s->rest_ns),
                proc.bench_probe == PROBE_LOAD        ? " (stopped after loading)"
                : proc.bench_probe == PROBE_SUBSCRIBE ? " (stopped after subscribing)"
                                                      : "");
}

void capture_timing_end_lines(void)
{
    if (!proc.config.timing)
        return;
    uint64_t callbacks = 0, own = 0, setup = 0, stacks = 0, unwound = 0, unwind = 0, python = 0;
    uint64_t kinds = 0, kinds_ns = 0, probes = 0, probes_ns = 0, nested = 0;
    uint64_t questions = 0;
    for (ss_thread_store *t = atomic_load(&proc.store.threads); t != NULL; t = t->next) {
        kinds += t->timed_kinds;
        kinds_ns += t->timed_kinds_ns;
        probes += t->timed_probes;
        probes_ns += t->timed_probes_ns;
        nested += t->timed_nested;
        questions += t->timed_questions;
        callbacks += t->timed_callbacks;
        own += t->timed_own_ns;
        setup += t->timed_setup_ns;
        stacks += t->timed_stacks;
        unwound += t->timed_unwound;
        unwind += t->timed_unwind_ns;
        python += t->timed_python_ns;
    }
    capture_say("callback timing: %llu callbacks, own time %.1f ms (%.2f us each; %u threads' "
                "registration %.1f ms); %llu stacks (%llu unwound whole, the others found in the "
                "site cache): unwinding %.1f ms, Python frames %.1f ms",
                (unsigned long long)callbacks, ms(own),
                callbacks ? (double)own / 1e3 / (double)callbacks : 0.0,
                atomic_load(&proc.store.thread_count), ms(setup), (unsigned long long)stacks,
                (unsigned long long)unwound, ms(unwind), ms(python));
    if (proc.light)
        capture_say("light timing: memory kinds asked at %llu calls, %.1f ms; pending work "
                    "looked for at %llu calls, entry and exit, %.1f ms (%llu streams asked); "
                    "%llu driver callbacks inside runtime calls",
                    (unsigned long long)kinds, ms(kinds_ns), (unsigned long long)probes,
                    ms(probes_ns), (unsigned long long)questions, (unsigned long long)nested);
    const capture_sampling *w = &proc.sampling;
    uint32_t windows = atomic_load(&proc.sampling.window_count);
    if (windows > 0)
        capture_say("window timing: %u windows: opening %.1f ms (records on %.1f, callbacks on "
                    "%.1f), closing %.1f ms (callbacks off %.1f, records off %.1f, flush %.1f)",
                    windows, ms(w->open_records_ns + w->open_callbacks_ns), ms(w->open_records_ns),
                    ms(w->open_callbacks_ns),
                    ms(w->close_callbacks_ns + w->close_records_ns + w->close_flush_ns),
                    ms(w->close_callbacks_ns), ms(w->close_records_ns), ms(w->close_flush_ns));
    if (w->records > 0)
        capture_say("record timing: %llu activity records converted in %.1f ms",
                    (unsigned long long)w->records, ms(w->records_ns));
}
