// SPDX-License-Identifier: Zlib
// Pictures of the shooting range: an RGB image, written as PNG (stb_image_write), and an animated GIF
// made of such images (our own GIF89a encoder: a fixed 252-colour palette, LZW).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace range {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
};

// width x height pixels, row by row from the top. Sizes of zero or less make an empty image.
struct Image {
    int width = 0;
    int height = 0;
    std::vector<Rgb> pixels;

    Image(int w, int h);
    Rgb& at(int x, int y) { return pixels[std::size_t(y) * std::size_t(width) + std::size_t(x)]; }
    // Sets the pixel when (x, y) is inside the image; does nothing otherwise.
    void put(int x, int y, Rgb colour);
    // A line from (x0, y0) to (x1, y1), clipped to the image (ends far outside are skipped whole).
    void line(int x0, int y0, int x1, int y1, Rgb colour);
};

// Writes the image as a PNG file; false when the image is empty or the file cannot be written.
bool writePng(const std::string& path, const Image& image);

// An animated GIF (looping), written frame by frame. Frames of another size than the first are skipped.
class GifWriter {
public:
    // Opens the file; ok() is false when it cannot be opened or the size is empty.
    GifWriter(const std::string& path, int width, int height, int delayHundredths);
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;
    bool ok() const { return file_ != nullptr; }
    void add(const Image& image);
    // Writes the trailer and closes the file; also done by the destructor.
    bool close();

private:
    std::FILE* file_ = nullptr;
    int width_;
    int height_;
    int delay_;
};

}  // namespace range
