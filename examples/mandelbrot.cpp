// SPDX-License-Identifier: MIT
// mandelbrot: renders the Mandelbrot set to a binary PPM image, one pipeline item per row.
// Rows near the set cost far more than rows outside it; work stealing evens that out.
// Usage: mandelbrot [out.ppm] [width] [height]
#include <weft/weft.hpp>

#include <complex>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

constexpr int max_iterations = 500;

// Escape time of c, 0 for points that never escape.
int escape_time(std::complex<double> c) {
  std::complex<double> z = 0;
  for (int i = 1; i <= max_iterations; ++i) {
    z = z * z + c;
    if (std::norm(z) > 4.0) return i;
  }
  return 0;
}

// A smooth blue-to-yellow palette; black inside the set.
void shade(int n, unsigned char* rgb) {
  const double t = static_cast<double>(n) / max_iterations;
  const double u = 1.0 - t;
  rgb[0] = static_cast<unsigned char>(n == 0 ? 0 : 9 * u * t * t * t * 255);
  rgb[1] = static_cast<unsigned char>(n == 0 ? 0 : 15 * u * u * t * t * 255);
  rgb[2] = static_cast<unsigned char>(n == 0 ? 0 : 8.5 * u * u * u * t * 255);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "mandelbrot.ppm";
  const int width = argc > 2 ? std::stoi(argv[2]) : 1920;
  const int height = argc > 3 ? std::stoi(argv[3]) : 1080;
  if (width <= 0 || height <= 0) {
    std::fprintf(stderr, "mandelbrot: width and height must be > 0\n");
    return 2;
  }

  // The view: real part in [-2.5, 1], imaginary part centred, square pixels.
  const double scale = 3.5 / width;
  const double top = 0.5 * height * scale;
  const auto row_bytes = static_cast<std::size_t>(width) * 3;
  std::vector<unsigned char> pixels(row_bytes * static_cast<std::size_t>(height));

  // Each row writes only its own slice of `pixels`: no synchronisation needed.
  weft::range(0, height).for_each([&](int y) {
    unsigned char* out = pixels.data() + static_cast<std::size_t>(y) * row_bytes;
    for (int x = 0; x < width; ++x)
      shade(escape_time({-2.5 + x * scale, top - y * scale}), out + 3 * x);
  });

  const std::string header =
      "P6 " + std::to_string(width) + " " + std::to_string(height) + " 255\n";
  {
    std::ofstream file(path, std::ios::binary);
    file << header;
    file.write(reinterpret_cast<const char*>(pixels.data()),
               static_cast<std::streamsize>(pixels.size()));
    if (!file) {
      std::fprintf(stderr, "mandelbrot: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  // Read the header back, so the test checks the file rather than our intentions.
  std::ifstream written(path, std::ios::binary);
  std::string first_line;
  std::getline(written, first_line);
  std::printf("wrote %s\nheader: %s\nbytes: %llu\n", path.c_str(), first_line.c_str(),
              static_cast<unsigned long long>(std::filesystem::file_size(path)));
}
