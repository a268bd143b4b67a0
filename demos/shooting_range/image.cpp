// SPDX-License-Identifier: Zlib
#include "image.hpp"

#include <algorithm>
#include <cstdlib>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace range {

Image::Image(int w, int h) : width(std::max(w, 0)), height(std::max(h, 0)) {
    if (width == 0 || height == 0) width = height = 0;
    pixels.resize(std::size_t(width) * std::size_t(height));
}

void Image::put(int x, int y, Rgb colour) {
    if (x >= 0 && y >= 0 && x < width && y < height) at(x, y) = colour;
}

void Image::line(int x0, int y0, int x1, int y1, Rgb colour) {
    // Ends far outside come from points behind or beside the camera: skipped, not walked.
    const int limit = 4 * std::max(width, height) + 16;
    if (std::abs(x0) > limit || std::abs(x1) > limit || std::abs(y0) > limit || std::abs(y1) > limit) return;
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int error = dx + dy;
    for (;;) {
        put(x0, y0, colour);
        if (x0 == x1 && y0 == y1) return;
        const int twice = 2 * error;
        if (twice >= dy) {
            error += dy;
            x0 += sx;
        }
        if (twice <= dx) {
            error += dx;
            y0 += sy;
        }
    }
}

bool writePng(const std::string& path, const Image& image) {
    if (image.width == 0) return false;
    static_assert(sizeof(Rgb) == 3);
    return stbi_write_png(path.c_str(), image.width, image.height, 3, image.pixels.data(), image.width * 3) !=
           0;
}

namespace {

// The palette: 6 levels of red, 7 of green, 6 of blue (252 colours; the last 4 entries black).
constexpr int kRed = 6, kGreen = 7, kBlue = 6;

std::uint8_t level(int i, int levels) { return std::uint8_t(i * 255 / (levels - 1)); }

std::uint8_t paletteIndex(Rgb c) {
    const auto nearest = [](std::uint8_t v, int levels) { return (int(v) * (levels - 1) + 127) / 255; };
    return std::uint8_t(nearest(c.r, kRed) * kGreen * kBlue + nearest(c.g, kGreen) * kBlue +
                        nearest(c.b, kBlue));
}

void put16(std::FILE* f, int v) {
    std::fputc(v & 0xff, f);
    std::fputc((v >> 8) & 0xff, f);
}

// Packs LZW codes least significant bit first into the GIF's sub-blocks of up to 255 bytes.
class BitWriter {
public:
    explicit BitWriter(std::FILE* f) : file_(f) {}
    void write(int code, int size) {
        bits_ |= std::uint32_t(code) << count_;
        count_ += size;
        while (count_ >= 8) {
            byte(std::uint8_t(bits_ & 0xff));
            bits_ >>= 8;
            count_ -= 8;
        }
    }
    void finish() {
        if (count_ > 0) byte(std::uint8_t(bits_ & 0xff));
        bits_ = 0;
        count_ = 0;
        flush();
        std::fputc(0, file_);
    }

private:
    void byte(std::uint8_t b) {
        block_[used_++] = b;
        if (used_ == 255) flush();
    }
    void flush() {
        if (used_ == 0) return;
        std::fputc(used_, file_);
        std::fwrite(block_, 1, std::size_t(used_), file_);
        used_ = 0;
    }
    std::FILE* file_;
    std::uint32_t bits_ = 0;
    int count_ = 0;
    std::uint8_t block_[255] = {};
    int used_ = 0;
};

}  // namespace

GifWriter::GifWriter(const std::string& path, int width, int height, int delayHundredths)
    : width_(width), height_(height), delay_(std::clamp(delayHundredths, 0, 65535)) {
    if (width <= 0 || height <= 0 || width > 65535 || height > 65535) return;
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) return;
    std::fputs("GIF89a", file_);
    put16(file_, width);
    put16(file_, height);
    std::fputc(0xf7, file_);  // a global palette of 256 entries, 8 bits per primary
    std::fputc(0, file_);
    std::fputc(0, file_);
    for (int i = 0; i < 256; ++i) {
        const bool used = i < kRed * kGreen * kBlue;
        std::fputc(used ? level(i / (kGreen * kBlue), kRed) : 0, file_);
        std::fputc(used ? level(i / kBlue % kGreen, kGreen) : 0, file_);
        std::fputc(used ? level(i % kBlue, kBlue) : 0, file_);
    }
    // Loop for ever (the NETSCAPE2.0 application extension).
    const unsigned char loop[] = {0x21, 0xff, 0x0b, 'N', 'E',  'T',  'S',  'C',  'A', 'P',
                                  'E',  '2',  '.',  '0', 0x03, 0x01, 0x00, 0x00, 0x00};
    std::fwrite(loop, 1, sizeof loop, file_);
}

GifWriter::~GifWriter() { close(); }

void GifWriter::add(const Image& image) {
    if (!file_ || image.width != width_ || image.height != height_) return;
    const unsigned char control[] = {
        0x21, 0xf9, 0x04, 0x00, std::uint8_t(delay_ & 0xff), std::uint8_t(delay_ >> 8), 0x00, 0x00};
    std::fwrite(control, 1, sizeof control, file_);
    std::fputc(0x2c, file_);
    put16(file_, 0);
    put16(file_, 0);
    put16(file_, width_);
    put16(file_, height_);
    std::fputc(0, file_);
    constexpr int kMinCodeSize = 8, kClear = 256, kEnd = 257, kMaxCode = 4095;
    std::fputc(kMinCodeSize, file_);
    // The code table as a trie: next[code * 256 + byte] is the code of that string extended by byte (0:
    // none).
    std::vector<std::uint16_t> next(std::size_t(kMaxCode + 1) * 256, 0);
    BitWriter out(file_);
    int codeSize = kMinCodeSize + 1;
    int lastCode = kEnd;
    out.write(kClear, codeSize);
    int current = -1;
    for (const Rgb& pixel : image.pixels) {
        const int value = paletteIndex(pixel);
        if (current < 0) {
            current = value;
            continue;
        }
        const std::uint16_t extended = next[std::size_t(current) * 256 + std::size_t(value)];
        if (extended != 0) {
            current = extended;
            continue;
        }
        out.write(current, codeSize);
        ++lastCode;
        next[std::size_t(current) * 256 + std::size_t(value)] = std::uint16_t(lastCode);
        if (lastCode >= (1 << codeSize)) ++codeSize;
        if (lastCode == kMaxCode) {
            // The table is full: start again (the decoder clears its own on the clear code).
            out.write(kClear, codeSize);
            std::fill(next.begin(), next.end(), std::uint16_t(0));
            codeSize = kMinCodeSize + 1;
            lastCode = kEnd;
        }
        current = value;
    }
    if (current >= 0) out.write(current, codeSize);
    out.write(kClear, codeSize);
    out.write(kEnd, kMinCodeSize + 1);
    out.finish();
}

bool GifWriter::close() {
    if (!file_) return false;
    std::fputc(0x3b, file_);
    const bool ok = std::fclose(file_) == 0;
    file_ = nullptr;
    return ok;
}

}  // namespace range
