// SPDX-License-Identifier: Zlib
// The threads batches keep between them (plugin/src/cast/worker_pool.hpp): a task runs on the caller
// and its helpers at once, and the call returns only when every one of them has returned; places no
// thread took are withdrawn when the caller is done; what a call throws reaches the caller; jobs from
// several threads share the pool; forChunks gives every index to one chunk. Also run under ThreadSanitizer
// (preset thread-sanitize).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cast/worker_pool.hpp"

namespace analytic::cast {
namespace {

using namespace std::chrono_literals;

// Waits until done() holds, for at most a few seconds (a broken pool fails the test instead of hanging it).
template <class Done> bool waitUntil(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::yield();
    }
    return true;
}

// A task that takes items one by one from a shared counter, as a batch takes its chunks.
struct SharedItems {
    explicit SharedItems(int count) : done(std::size_t(count)) {}

    void operator()() {
        for (int item; (item = next.fetch_add(1)) < int(done.size());)
            done[std::size_t(item)].fetch_add(1);
    }

    std::atomic<int> next{0};
    std::vector<std::atomic<int>> done;
};

// Shares count items among the caller and `helpers` of the pool's threads, and checks each was taken once.
void expectEachItemTakenOnce(WorkerPool& pool, int count, unsigned helpers) {
    SharedItems items(count);
    pool.runTogether(helpers, items);
    EXPECT_EQ(
        std::count_if(items.done.begin(), items.done.end(), [](const std::atomic<int>& d) { return d != 1; }),
        0);
}

TEST(WorkerPool, HelpersRunWithTheCallerAndAllReturnBeforeIt) {
    WorkerPool pool;
    for (const unsigned helpers : {0u, 1u, 3u}) {
        std::atomic<unsigned> active{0}, calls{0};
        std::atomic<bool> allTogether{false};
        const auto caller = std::this_thread::get_id();
        std::atomic<bool> callerCalled{false};
        auto task = [&] {
            ++calls;
            if (std::this_thread::get_id() == caller) callerCalled = true;
            // Every call waits here until all helpers + 1 are in at once: idle pool threads take their
            // places while the caller's call is running.
            if (++active == helpers + 1) allTogether = true;
            EXPECT_TRUE(waitUntil([&] { return allTogether.load(); }));
            std::this_thread::sleep_for(1ms);
            --active;
        };
        pool.runTogether(helpers, task);
        EXPECT_EQ(active.load(), 0u) << "a call still running after runTogether returned";
        EXPECT_EQ(calls.load(), helpers + 1);
        EXPECT_TRUE(callerCalled.load());
    }
    expectEachItemTakenOnce(pool, 10'000, 3);
}

TEST(WorkerPool, PlacesNoThreadTookAreWithdrawnWhenTheCallerIsDone) {
    WorkerPool pool;
    // Job A keeps the pool's one thread busy until released.
    std::atomic<bool> helperIn{false}, release{false};
    std::thread jobA([&] {
        const auto caller = std::this_thread::get_id();
        auto task = [&] {
            if (std::this_thread::get_id() == caller) {
                EXPECT_TRUE(waitUntil([&] { return helperIn.load(); }));
                return;
            }
            helperIn = true;
            EXPECT_TRUE(waitUntil([&] { return release.load(); }));
        };
        pool.runTogether(1, task);
    });
    ASSERT_TRUE(waitUntil([&] { return helperIn.load(); }));
    // Job B asks for a helper too; none is free, so it runs on its caller alone and returns.
    std::atomic<int> callsB{0};
    auto jobB = std::async(std::launch::async, [&] {
        auto task = [&] { ++callsB; };
        pool.runTogether(1, task);
    });
    const bool returned = jobB.wait_for(10s) == std::future_status::ready;
    release = true;
    jobA.join();
    jobB.get();
    EXPECT_TRUE(returned) << "job B waited for a place no thread was free to take";
    EXPECT_GE(callsB.load(), 1);
}

TEST(WorkerPool, WhatACallThrowsReachesTheCallerOnceAllHaveReturned) {
    WorkerPool pool;
    std::atomic<unsigned> active{0};
    const auto caller = std::this_thread::get_id();
    std::atomic<bool> helperIn{false};
    auto helperThrows = [&] {
        ++active;
        if (std::this_thread::get_id() == caller) {
            EXPECT_TRUE(waitUntil([&] { return helperIn.load(); }));
            --active;
            return;
        }
        helperIn = true;
        std::this_thread::sleep_for(2ms);
        --active;
        throw std::runtime_error("from a helper");
    };
    try {
        pool.runTogether(1, helperThrows);
        ADD_FAILURE() << "nothing thrown";
    } catch (const std::runtime_error& error) {
        EXPECT_STREQ(error.what(), "from a helper");
        EXPECT_EQ(active.load(), 0u);
    }
    auto callerThrows = [&] {
        ++active;
        std::this_thread::sleep_for(2ms);
        --active;
        if (std::this_thread::get_id() == caller) throw std::runtime_error("from the caller");
    };
    try {
        pool.runTogether(2, callerThrows);
        ADD_FAILURE() << "nothing thrown";
    } catch (const std::runtime_error& error) {
        EXPECT_STREQ(error.what(), "from the caller");
        EXPECT_EQ(active.load(), 0u);
    }
    expectEachItemTakenOnce(pool, 1'000, 2);  // the pool still works
}

TEST(WorkerPool, JobsFromSeveralThreadsShareIt) {
    WorkerPool pool;
    std::vector<std::thread> callers;
    for (int caller = 0; caller < 4; ++caller)
        callers.emplace_back([&] {
            for (int job = 0; job < 50; ++job)
                expectEachItemTakenOnce(pool, 500, 2);
        });
    for (std::thread& caller : callers)
        caller.join();
}

// forChunks, as the batches share their rays: every index in [0, count) in exactly one chunk, each chunk
// whole and at most chunkSize long, whatever the counts of items, chunks and threads.
TEST(WorkerPool, ForChunksCoversEveryIndexOnce) {
    for (const std::size_t count : {0, 1, 63, 64, 65, 1000, 10'007})
        for (const std::size_t chunkSize : {1, 64, 256})
            for (const unsigned threads : {1u, 2u, 3u, 8u}) {
                SCOPED_TRACE(testing::Message()
                             << count << " items, chunks of " << chunkSize << ", " << threads << " threads");
                std::vector<std::atomic<int>> done(count);
                std::atomic<int> badChunks{0};
                forChunks(count, chunkSize, threads, [&](std::size_t begin, std::size_t end) {
                    badChunks += !(begin < end && end <= count && end - begin <= chunkSize &&
                                   (begin % chunkSize == 0) && (end == count || end - begin == chunkSize));
                    for (std::size_t i = begin; i < end; ++i)
                        done[i].fetch_add(1);
                });
                EXPECT_EQ(badChunks.load(), 0);
                EXPECT_EQ(
                    std::count_if(done.begin(), done.end(), [](const std::atomic<int>& d) { return d != 1; }),
                    0);
            }
}

}  // namespace
}  // namespace analytic::cast
