// SPDX-License-Identifier: Zlib
// The main demo: the shooting range (range.hpp) run on our path with pictures, then the same scene on
// Bullet's own path, and a table of what happened and how long it took on each.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <utility>

#include "range.hpp"

namespace {

void usage() {
    std::printf(
        "usage: demo [options]\n"
        "  --frames N       simulation steps of 1/60 s (default 420: 7 s)\n"
        "  --size WxH       picture size, each 1-1920 (default 320x180); 0x0: no pictures\n"
        "  --every N        a picture every N frames (default 5)\n"
        "  --threads N      threads for the ray batches (default 0: one per core)\n"
        "  --output DIR     where the pictures go (default demo-output)\n"
        "  --builtin        run the scene on Bullet's own path only (with the pictures)\n"
        "  --no-compare     do not run Bullet's path after ours (its pictures: DIR/builtin)\n"
        "  --quiet          no progress bar\n"
        "  --help           this text\n");
}

bool number(const char* text, int& value) {
    char* end = nullptr;
    const long parsed = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || parsed < 0 || parsed > 1000000) return false;
    value = int(parsed);
    return true;
}

// The options that take a count: their range, and what they set.
struct Counted {
    const char* name;
    int least, most;
    void (*set)(range::Options&, int);
};

const Counted* countedOption(const char* arg) {
    static const Counted counted[] = {
        {"--frames", 1, 100000, [](range::Options& o, int n) { o.frames = n; }},
        {"--every", 1, 100000, [](range::Options& o, int n) { o.every = n; }},
        {"--threads", 0, 256, [](range::Options& o, int n) { o.threads = unsigned(n); }},
    };
    for (const Counted& option : counted)
        if (!std::strcmp(arg, option.name)) return &option;
    return nullptr;
}

// The run's figures as name=value lines in DIR/report.txt, prefixed "ours." or "builtin.", for the demo's
// test and for scripts.
void writeReport(const std::string& folder, const range::Report& report, bool append) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    const std::string path = (std::filesystem::path(folder) / "report.txt").string();
    std::FILE* file = std::fopen(path.c_str(), append ? "a" : "w");
    if (!file) return;
    const char* prefix = report.builtin ? "builtin" : "ours";
    const std::pair<const char*, double> values[] = {
        {"shots", double(report.shots)},
        {"hits", double(report.hits)},
        {"bodyHits", double(report.bodyHits)},
        {"boxes", report.boxes},
        {"knockedOver", report.knockedOver},
        {"sweepProjectiles", report.sweepProjectiles},
        {"sweepStopped", report.sweepStopped},
        {"sweepTunnelled", report.sweepTunnelled},
        {"ccdProjectiles", report.ccdProjectiles},
        {"ccdTunnelled", report.ccdTunnelled},
        {"characterDistance", report.characterDistance},
        {"characterReachedPlatform", report.characterReachedPlatform ? 1 : 0},
        {"characterAirFrames", report.characterAirFrames},
        {"characterStuckFrames", report.characterStuckFrames},
        {"characterSinkMax", report.characterSinkMax},
        {"rayMissed", double(report.rayMissed)},
        {"rayOther", double(report.rayOther)},
        {"rayOff", double(report.rayOff)},
        {"rayFalse", double(report.rayFalse)},
        {"waterPolylines", report.waterPolylines},
        {"pictures", report.pictures},
    };
    for (const auto& [name, value] : values)
        std::fprintf(file, "%s.%s=%.6g\n", prefix, name, value);
    std::fclose(file);
}

// text as one word for the shell, whatever it holds: in single quotes, each ' as '\''.
std::string shellQuoted(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

double ratio(double bullet, double ours) { return ours > 0 ? bullet / ours : 0; }

void table(const range::Report& ours, const range::Report* bullet) {
    const auto row = [&](const char* what, long a, long b) {
        if (bullet)
            std::printf("  %-46s %12ld %12ld\n", what, a, b);
        else
            std::printf("  %-46s %12ld\n", what, a);
    };
    const char* first = ours.builtin ? "Bullet's" : "ours";
    if (bullet)
        std::printf("\n  %-46s %12s %12s\n", "what happened", first, "Bullet's");
    else
        std::printf("\n  %-46s %12s\n", "what happened", first);
    const range::Report& b = bullet ? *bullet : ours;
    row("hitscan shots (rays)", ours.shots, b.shots);
    row("  that hit something", ours.hits, b.hits);
    row("  that hit a body (impulse)", ours.bodyHits, b.bodyHits);
    row("boxes knocked over (of the boxes)", ours.knockedOver, b.knockedOver);
    row("sweep projectiles fired", ours.sweepProjectiles, b.sweepProjectiles);
    row("  stopped", ours.sweepStopped, b.sweepStopped);
    row("  tunnelled through the thin wall", ours.sweepTunnelled, b.sweepTunnelled);
    row("CCD projectiles fired", ours.ccdProjectiles, b.ccdProjectiles);
    row("  tunnelled through the thin wall", ours.ccdTunnelled, b.ccdTunnelled);
    row("character: centimetres walked", long(ours.characterDistance * 100), long(b.characterDistance * 100));
    row("character: reached the moving platform", ours.characterReachedPlatform, b.characterReachedPlatform);
    row("character: frames off the ground (never meant)", ours.characterAirFrames, b.characterAirFrames);
    row("character: frames stuck while walking", ours.characterStuckFrames, b.characterStuckFrames);
    row("character: feet below the floor, most (mm)", std::lround(ours.characterSinkMax * 1000),
        std::lround(b.characterSinkMax * 1000));
    if (!ours.builtin) {
        std::printf("  the same gun rays through Bullet's rayTest:\n");
        std::printf("  %-46s %12ld\n", "  hit by ours, missed by Bullet's (slipped)", ours.rayMissed);
        std::printf("  %-46s %12ld\n", "  another object named (or ours none)", ours.rayOther);
        std::printf("  %-46s %12ld\n", "  same object, > 1 mm apart along the ray", ours.rayOff);
        std::printf("  %-46s %12ld\n", "  Bullet's hit > 1 cm from its object", ours.rayFalse);
        std::printf("  %-46s %12d (%d points)\n", "water line polylines (sliceMeshes)", ours.waterPolylines,
                    ours.waterPoints);
    }
    if (bullet)
        std::printf("\n  %-46s %12s %12s %8s\n", "time (ms)", first, "Bullet's", "ratio");
    else
        std::printf("\n  %-46s %12s\n", "time (ms)", first);
    const auto timed = [&](const char* what, double a, double c) {
        if (bullet)
            std::printf("  %-46s %12.1f %12.1f %7.2fx\n", what, a * 1e3, c * 1e3, ratio(c, a));
        else
            std::printf("  %-46s %12.1f\n", what, a * 1e3);
    };
    timed("stepSimulation (contacts, CCD, character)", ours.stepSeconds, b.stepSeconds);
    timed("gun rays", ours.raySeconds, b.raySeconds);
    timed("projectile sweeps", ours.sweepSeconds, b.sweepSeconds);
    if (ours.pictures > 0 && (!bullet || bullet->pictures == ours.pictures))
        timed("pictures (one ray per pixel)", ours.renderSeconds, b.renderSeconds);
    else if (ours.pictures > 0)
        std::printf("  %-46s %12.1f\n", "pictures (one ray per pixel)", ours.renderSeconds * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
    range::Options options;
    bool compare = true;
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
        int n = 0;
        if (!std::strcmp(arg, "--help") || !std::strcmp(arg, "-h")) {
            usage();
            return 0;
        } else if (!std::strcmp(arg, "--builtin")) {
            options.builtin = true;
        } else if (!std::strcmp(arg, "--no-compare")) {
            compare = false;
        } else if (!std::strcmp(arg, "--quiet")) {
            options.progress = false;
        } else if (const Counted* counted = countedOption(arg)) {
            if (!value || !number(value, n) || n < counted->least || n > counted->most) {
                std::fprintf(stderr, "demo: %s wants a whole number from %d to %d\n", arg, counted->least,
                             counted->most);
                return 2;
            }
            counted->set(options, n);
            ++i;
        } else if (!std::strcmp(arg, "--output") && value) {
            options.output = value;
            ++i;
        } else if (!std::strcmp(arg, "--size") && value) {
            int w = 0, h = 0;
            char extra = 0;
            if (std::sscanf(value, "%dx%d%c", &w, &h, &extra) != 2 || w < 0 || h < 0 || w > 1920 ||
                h > 1920 || (w == 0) != (h == 0)) {
                std::fprintf(stderr, "demo: --size wants WxH, each 1-1920 (or 0x0)\n");
                return 2;
            }
            options.width = w;
            options.height = h;
            ++i;
        } else {
            std::fprintf(stderr, "demo: bad option %s (see --help)\n", arg);
            return 2;
        }
    }
    try {
        std::printf("The shooting range: %d frames of 1/60 s, %s path%s\n", options.frames,
                    options.builtin ? "Bullet's" : "our", options.width > 0 ? ", with pictures" : "");
        const range::Report first = range::run(options);
        if (first.pictures > 0) {
            std::printf("%d pictures in %s (frame_0000.png ...)\n", first.pictures, options.output.c_str());
            if (!first.gifPath.empty()) std::printf("the animation: %s\n", first.gifPath.c_str());
            if (std::system("command -v ffmpeg > /dev/null 2>&1") == 0) {
                const std::string folder = options.output;
                const std::string command = "ffmpeg -y -loglevel error -framerate 12 -i " +
                                            shellQuoted(folder + "/frame_%04d.png") +
                                            " -vf 'scale=ceil(iw/2)*2:ceil(ih/2)*2' -pix_fmt yuv420p " +
                                            shellQuoted(folder + "/run.mp4");
                if (std::system(command.c_str()) == 0)
                    std::printf("the video: %s/run.mp4\n", folder.c_str());
                else {
                    std::error_code ignored;  // a part-written file is no video
                    std::filesystem::remove(std::filesystem::path(folder) / "run.mp4", ignored);
                    std::printf("ffmpeg failed: no video\n");
                }
            } else {
                std::printf("no ffmpeg on PATH: no MP4 (the GIF is there)\n");
            }
        }
        writeReport(options.output, first, false);
        if (options.builtin || !compare) {
            table(first, nullptr);
            return 0;
        }
        range::Options bullet = options;
        bullet.builtin = true;
        bullet.output = (std::filesystem::path(options.output) / "builtin").string();
        std::printf(
            "The same scene on Bullet's own path (its algorithms, rayTest, convexSweepTest, "
            "btKinematicCharacterController):\n");
        const range::Report second = range::run(bullet);
        if (second.pictures > 0)
            std::printf("%d pictures of Bullet's run in %s\n", second.pictures, bullet.output.c_str());
        writeReport(options.output, second, true);
        table(first, &second);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "demo: %s\n", error.what());
        return 1;
    }
    return 0;
}
