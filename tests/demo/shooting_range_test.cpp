// SPDX-License-Identifier: Zlib
// Checks what the demo's short run (the ctest demo_shooting_range_run, before this test) wrote into
// DEMO_OUTPUT: its pictures decode, are not blank and show the scene where Bullet's own rays see it;
// the animation decodes; the run's figures (report.txt) agree with Bullet's path, and no projectile of
// ours passed the thin wall.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "shooting_range/image.hpp"

namespace {

const std::filesystem::path kOutput = DEMO_OUTPUT;
constexpr int kWidth = 64, kHeight = 36;  // the run's --size

struct Decoded {
    int width = 0, height = 0;
    std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};
    const unsigned char* at(int x, int y) const { return pixels.get() + 3 * (y * width + x); }
};

Decoded decode(const std::filesystem::path& path) {
    Decoded image;
    int channels = 0;
    image.pixels.reset(stbi_load(path.string().c_str(), &image.width, &image.height, &channels, 3));
    return image;
}

std::map<std::string, double> readReport() {
    std::map<std::string, double> values;
    std::ifstream in(kOutput / "report.txt");
    std::string line;
    while (std::getline(in, line)) {
        const auto equals = line.find('=');
        if (equals != std::string::npos) values[line.substr(0, equals)] = std::stod(line.substr(equals + 1));
    }
    return values;
}

// The sky the demo draws where a pixel's ray hits nothing: a gradient down the rows, from (120, 170, 230)
// at the top to (225, 235, 245); a hit is shaded from its object's colour and is all but never exactly it.
bool isSky(const unsigned char* p, int y) {
    const double t = double(y) / kHeight;
    const int expected[3] = {int(120 + 105 * t), int(170 + 65 * t), int(230 + 15 * t)};
    for (int c = 0; c < 3; ++c)
        if (std::abs(int(p[c]) - expected[c]) > 1) return false;
    return true;
}

TEST(ShootingRange, PicturesDecodeAndShowTheScene) {
    for (const char* name : {"frame_0000.png", "frame_0003.png", "builtin/frame_0003.png"}) {
        SCOPED_TRACE(name);
        const Decoded image = decode(kOutput / name);
        ASSERT_NE(image.pixels, nullptr) << stbi_failure_reason();
        ASSERT_EQ(image.width, kWidth);
        ASSERT_EQ(image.height, kHeight);
        std::set<int> colours;
        int sky = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x) {
                const unsigned char* p = image.at(x, y);
                colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
                sky += isSky(p, y);
            }
        EXPECT_GT(colours.size(), 40u) << "a blank or nearly blank picture";
        // The camera looks down at the range: sky along the top row, the ground (hits) along the bottom.
        for (int x = 0; x < image.width; ++x) {
            EXPECT_TRUE(isSky(image.at(x, 0), 0)) << "column " << x;
            EXPECT_FALSE(isSky(image.at(x, image.height - 1), image.height - 1)) << "column " << x;
        }
        EXPECT_GT(sky, image.width * image.height / 20);
        EXPECT_LT(sky, image.width * image.height / 2);
    }
}

// Our picture and Bullet's of the same frame: hits where Bullet's rays see geometry, misses where they
// see none (the bodies have moved apart a little by then: most pixels, not all).
TEST(ShootingRange, OurPictureSeesWhatBulletsRaysSee) {
    const Decoded ours = decode(kOutput / "frame_0000.png"),
                  bullet = decode(kOutput / "builtin/frame_0000.png");
    ASSERT_NE(ours.pixels, nullptr);
    ASSERT_NE(bullet.pixels, nullptr);
    int same = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            same += isSky(ours.at(x, y), y) == isSky(bullet.at(x, y), y);
    EXPECT_GE(same, kWidth * kHeight * 99 / 100);
}

TEST(ShootingRange, AnimationDecodes) {
    const Decoded first = decode(kOutput / "run.gif");
    ASSERT_NE(first.pixels, nullptr) << stbi_failure_reason();
    EXPECT_EQ(first.width, kWidth);
    EXPECT_EQ(first.height, kHeight);
    const Decoded png = decode(kOutput / "frame_0000.png");
    ASSERT_NE(png.pixels, nullptr);
    // The GIF's palette has 6 levels of red and blue, 7 of green: each pixel within half a step.
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            for (int c = 0; c < 3; ++c)
                ASSERT_LE(std::abs(int(first.at(x, y)[c]) - int(png.at(x, y)[c])), 26) << x << ", " << y;
}

TEST(ShootingRange, RunAgreesWithBulletsPathAndNothingTunnels) {
    auto report = readReport();
    ASSERT_GT(report["ours.shots"], 0);
    EXPECT_EQ(report["ours.shots"], report["builtin.shots"]);
    // The same shots at the same scene: the bodies move a little differently (other contacts), so the
    // hit counts agree within 5 %.
    EXPECT_GT(report["ours.hits"], report["ours.shots"] / 2);
    EXPECT_NEAR(report["ours.hits"], report["builtin.hits"], report["ours.shots"] * 0.05);
    EXPECT_GT(report["ours.sweepProjectiles"], 0);
    EXPECT_GT(report["ours.ccdProjectiles"], 0);
    EXPECT_EQ(report["ours.sweepTunnelled"], 0);
    EXPECT_EQ(report["ours.ccdTunnelled"], 0);
    EXPECT_EQ(report["ours.characterAirFrames"], 0);
    // Our character stands at its skin (2 cm) above the floor, its feet never in it.
    EXPECT_LT(report["ours.characterSinkMax"], 0.001);
    EXPECT_GT(report["ours.characterDistance"], 0.5);
    EXPECT_GT(report["ours.waterPolylines"], 0);
    EXPECT_GE(report["ours.pictures"], 4);
}

// The GIF encoder on frames of noise in the palette's colours (so the decoded colours are exact): the
// LZW table fills and starts again many times in each frame.
TEST(GifWriter, NoisyFramesDecodeExactly) {
    const int width = 200, height = 150, frames = 3;
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "analytic_gif_writer_test.gif";
    std::mt19937 random(7);
    std::vector<range::Image> images;
    {
        range::GifWriter gif(path.string(), width, height, 10);
        ASSERT_TRUE(gif.ok());
        for (int f = 0; f < frames; ++f) {
            range::Image image(width, height);
            for (range::Rgb& pixel : image.pixels) {
                // Mostly noise, runs of one colour now and then (long strings in the table).
                const unsigned value = random() % 8 < 6 ? unsigned(random()) : 0u;
                pixel = {std::uint8_t((value % 6) * 51), std::uint8_t(((value / 6) % 7) * 255 / 6),
                         std::uint8_t(((value / 42) % 6) * 51)};
            }
            gif.add(image);
            images.push_back(std::move(image));
        }
        ASSERT_TRUE(gif.close());
    }
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(path);
    int* delays = nullptr;
    int w = 0, h = 0, count = 0, channels = 0;
    unsigned char* decoded =
        stbi_load_gif_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), int(bytes.size()), &delays,
                                  &w, &h, &count, &channels, 3);
    ASSERT_NE(decoded, nullptr) << stbi_failure_reason();
    EXPECT_EQ(w, width);
    EXPECT_EQ(h, height);
    ASSERT_EQ(count, frames);
    int wrong = 0;
    for (int f = 0; f < frames; ++f)
        for (int i = 0; i < width * height; ++i) {
            const unsigned char* p = decoded + (std::size_t(f) * width * height + std::size_t(i)) * 3;
            const range::Rgb& q = images[std::size_t(f)].pixels[std::size_t(i)];
            wrong += p[0] != q.r || p[1] != q.g || p[2] != q.b;
        }
    EXPECT_EQ(wrong, 0);
    stbi_image_free(decoded);
    stbi_image_free(delays);
}

}  // namespace
