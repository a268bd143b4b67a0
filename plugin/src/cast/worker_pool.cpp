// SPDX-License-Identifier: Zlib
#include "cast/worker_pool.hpp"

#include <algorithm>
#include <chrono>

namespace analytic::cast {
namespace {

// Watches for up to 100 microseconds while the condition holds, before a thread goes to sleep on it: a
// sleeping thread is slow to wake, and batches often come one after another. Paused between looks, so as to
// leave a core's other hardware thread alone.
template <class Condition> void watchWhile(Condition condition) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
    for (unsigned looks = 1; condition(); ++looks) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#else
        std::this_thread::yield();
#endif
        if (looks % 64 == 0 && std::chrono::steady_clock::now() >= until) return;
    }
}

}  // namespace

WorkerPool& WorkerPool::shared() {
    static WorkerPool pool;
    return pool;
}

WorkerPool::~WorkerPool() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    jobPosted_.notify_all();
    for (std::thread& thread : threads_)
        thread.join();
}

void WorkerPool::run(unsigned helpers, void (*call)(void*), void* context) {
    if (helpers == 0) return call(context);
    Job job{call, context, helpers, 0, {}};
    {
        const std::lock_guard lock(mutex_);
        while (threads_.size() < helpers)
            threads_.emplace_back([this] { serve(); });
        jobs_.push_back(&job);
        ++jobsPosted_;
    }
    // As many sleeping threads woken as places offered (the others would wake to nothing, then watch).
    for (unsigned place = 0; place < helpers; ++place)
        jobPosted_.notify_one();
    std::exception_ptr failure;
    try {
        call(context);
    } catch (...) {
        failure = std::current_exception();
    }
    // The job lives on this stack: no pool thread may take it or still be in its call on return.
    std::unique_lock lock(mutex_);
    if (job.openPlaces > 0) jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
    if (job.running > 0) {
        lock.unlock();
        watchWhile([&] { return job.running > 0; });  // the helpers are finishing their last chunks
        lock.lock();
    }
    jobLeft_.wait(lock, [&] { return job.running == 0; });
    if (!failure) failure = job.failure;
    if (failure) std::rethrow_exception(failure);
}

void WorkerPool::serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (jobs_.empty() && !stopping_) {
            const unsigned seen = jobsPosted_;
            lock.unlock();
            watchWhile([&] { return jobsPosted_ == seen; });
            lock.lock();
        }
        jobPosted_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (stopping_) return;
        Job& job = *jobs_.front();
        if (--job.openPlaces == 0) jobs_.pop_front();
        ++job.running;
        lock.unlock();
        std::exception_ptr failure;
        try {
            job.call(job.context);
        } catch (...) {
            failure = std::current_exception();
        }
        lock.lock();
        if (failure && !job.failure) job.failure = failure;
        if (--job.running == 0) jobLeft_.notify_all();
    }
}

}  // namespace analytic::cast
