// SPDX-License-Identifier: Zlib
// Threads kept between batches: starting one costs as much as casting many rays, which a frame's small
// batch would lose. Built on std threads, mutexes and condition variables, which ThreadSanitizer follows
// (Debian's oneTBB is not built for it: a batch on its threads gives race reports that are not races,
// which would blind the sanitizer run).
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace analytic::cast {

class WorkerPool {
public:
    // The process's pool: its threads start when first needed and are kept until the program ends.
    static WorkerPool& shared();

    WorkerPool() = default;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;
    ~WorkerPool();

    // Calls task() on the calling thread and on up to `helpers` of the pool's threads at once, and returns
    // when every call has returned. task must share out its work itself (each call takes what is left)
    // and may be called fewer times: places no pool thread has taken when the caller's own call returns
    // are withdrawn (another batch may be keeping the threads busy). The pool grows to `helpers` threads.
    // What a call throws is thrown here once all have returned (the caller's first, else a pool thread's).
    template <class Task> void runTogether(unsigned helpers, Task& task) {
        run(
            helpers, [](void* context) { (*static_cast<Task*>(context))(); }, &task);
    }

private:
    struct Job {
        void (*call)(void*);
        void* context;
        unsigned openPlaces;            // pool threads it may still take
        std::atomic<unsigned> running;  // pool threads in its call (changed locked, watched unlocked)
        std::exception_ptr failure;     // the first a pool thread's call threw
    };

    void run(unsigned helpers, void (*call)(void*), void* context);
    void serve();

    std::mutex mutex_;
    std::condition_variable jobPosted_, jobLeft_;
    std::deque<Job*> jobs_;                // those with open places, oldest first
    std::atomic<unsigned> jobsPosted_{0};  // read unlocked by threads about to sleep
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// Calls work(begin, end) over [0, count) in chunks of chunkSize, on up to `threads` threads: the calling
// one and the shared pool's. Which thread takes a chunk must change nothing in its results. The chunks are
// split into a run of consecutive ones per thread, which each thread takes first before helping with the
// others' runs: consecutive chunks on one thread went faster than every other one (as oneTBB's
// parallel_for, which splits its range the same way).
template <class Work> void forChunks(std::size_t count, std::size_t chunkSize, unsigned threads, Work work) {
    const std::size_t chunks = (count + chunkSize - 1) / chunkSize;
    const auto runs = unsigned(std::min<std::size_t>(threads, chunks));
    // Each on a cache line of its own: the threads take chunks from them at once.
    struct alignas(64) Run {
        std::atomic<std::size_t> next;
        std::size_t end;
    };
    std::vector<Run> runsOfChunks(runs);
    for (unsigned run = 0; run < runs; ++run) {
        runsOfChunks[run].next = chunks * run / runs;
        runsOfChunks[run].end = chunks * (run + 1) / runs;
    }
    std::atomic<unsigned> arrived{0};
    auto takeChunks = [&] {
        const unsigned own = arrived.fetch_add(1, std::memory_order_relaxed) % runs;
        for (unsigned k = 0; k < runs; ++k) {
            Run& run = runsOfChunks[(own + k) % runs];
            for (std::size_t chunk; (chunk = run.next.fetch_add(1, std::memory_order_relaxed)) < run.end;)
                work(chunk * chunkSize, std::min(count, (chunk + 1) * chunkSize));
        }
    };
    if (runs > 0) WorkerPool::shared().runTogether(runs - 1, takeChunks);
}

}  // namespace analytic::cast
