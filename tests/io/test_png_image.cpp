// Tests of the diverging-colour PNG writer, read back through libpng.
#include <gtest/gtest.h>
#include <png.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/io/png_image.hpp"
#include "revwave/io/png_slices.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

class PngImageTest : public revwave::testing::TempDirTest {
 protected:
  PngImageTest() : TempDirTest("revwave_png") {}

  struct Picture {
    std::uint32_t width = 0, height = 0;
    std::vector<unsigned char> rgb;
    std::array<int, 3> at(std::uint32_t row, std::uint32_t col) const {
      const std::size_t i = (static_cast<std::size_t>(row) * width + col) * 3;
      return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
  };
  static Picture read_png(const std::string& p) {
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, p.c_str())) throw std::runtime_error(image.message);
    image.format = PNG_FORMAT_RGB;
    Picture pic;
    pic.width = image.width;
    pic.height = image.height;
    pic.rgb.resize(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, pic.rgb.data(), 0, nullptr)) throw std::runtime_error(image.message);
    return pic;
  }
  static bool reddish(const std::array<int, 3>& c) { return c[0] > c[1] + 60 && c[0] > c[2] + 60; }
  static bool bluish(const std::array<int, 3>& c) { return c[2] > c[0] + 60 && c[2] > c[1] + 20; }
  static bool white(const std::array<int, 3>& c) { return c[0] == 255 && c[1] == 255 && c[2] == 255; }
};

std::uint32_t be32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(s[at + i]);
  return v;
}

}  // namespace

TEST_F(PngImageTest, SignatureAndIhdrSizeWithUpscale) {
  const std::vector<double> d(4 * 5, 0.5);
  const std::string p = path("a.png");
  revwave::write_png_signed(p, d.data(), 4, 5, 1.0, 3);
  std::ifstream in(p, std::ios::binary);
  const std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(s.size(), 33u);
  EXPECT_EQ(s.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(s.substr(12, 4), "IHDR");
  EXPECT_EQ(be32(s, 16), 15u);  // width  = cols * upscale
  EXPECT_EQ(be32(s, 20), 12u);  // height = rows * upscale
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);  // no temporary left
}

TEST_F(PngImageTest, SignedColoursAndRowZeroAtTop) {
  // Row 0: positive, row 1: negative, row 2: zero; clip chosen automatically.
  const std::vector<double> d{2.0, 2.0, -2.0, -2.0, 0.0, 0.0};
  const std::string p = path("b.png");
  revwave::write_png_signed(p, d.data(), 3, 2, 0.0, 2);
  const auto pic = read_png(p);
  ASSERT_EQ(pic.width, 4u);
  ASSERT_EQ(pic.height, 6u);
  for (std::uint32_t c = 0; c < 4; ++c) {
    for (std::uint32_t s = 0; s < 2; ++s) {
      EXPECT_TRUE(reddish(pic.at(0 + s, c)));
      EXPECT_TRUE(bluish(pic.at(2 + s, c)));
      EXPECT_TRUE(white(pic.at(4 + s, c)));
    }
  }
}

TEST_F(PngImageTest, ColourMapIsSymmetricAndSaturates) {
  const std::vector<double> d{0.5, -0.5, 10.0, 1.0, std::numeric_limits<double>::quiet_NaN()};
  revwave::write_png_signed(path("c.png"), d.data(), 1, 5, 1.0);
  const auto pic = read_png(path("c.png"));
  EXPECT_TRUE(reddish(pic.at(0, 0)));
  EXPECT_TRUE(bluish(pic.at(0, 1)));
  EXPECT_EQ(pic.at(0, 2), pic.at(0, 3));  // beyond clip saturates
  EXPECT_EQ(pic.at(0, 4), (std::array<int, 3>{128, 128, 128}));  // NaN grey
}

TEST_F(PngImageTest, AllZeroIsAllWhite) {
  const std::vector<double> d(6, 0.0);
  revwave::write_png_signed(path("z.png"), d.data(), 2, 3, 0.0);
  const auto pic = read_png(path("z.png"));
  for (std::uint32_t r = 0; r < 2; ++r)
    for (std::uint32_t c = 0; c < 3; ++c) EXPECT_TRUE(white(pic.at(r, c)));
}

TEST_F(PngImageTest, DefaultClipIs99thPercentileOfMagnitude) {
  std::vector<double> d(1000);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = (i % 2 ? -1.0 : 1.0) * static_cast<double>(i);
  EXPECT_EQ(revwave::default_png_clip(d.data(), 1000), 989.0);  // floor(0.99 * 999) = 989th smallest
}

TEST_F(PngImageTest, BadArgumentsThrow) {
  const double x = 1;
  EXPECT_THROW(revwave::write_png_signed(path("e.png"), &x, 0, 1, 1.0), std::invalid_argument);
  EXPECT_THROW(revwave::write_png_signed(path("e.png"), &x, 1, 1, 1.0, 0), std::invalid_argument);
  EXPECT_THROW(revwave::write_png_signed(path("e.png"), nullptr, 1, 1, 1.0), std::invalid_argument);
  EXPECT_TRUE(fs::is_empty(dir_));
}

// The central slices cut the planes through the middle: a value that is positive on the plane
// y = ny / 2 only is red all over the x-z picture, and a red column (y-z) or a red row band (x-y)
// elsewhere; each picture is the plane's size times 400 / max(nx, ny, nz).
TEST_F(PngImageTest, CentralSlicesCutTheMiddlePlanes) {
  const std::int64_t nx = 5, ny = 4, nz = 3;
  std::vector<double> v;
  for (std::int64_t i = 0; i < nx; ++i)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t k = 0; k < nz; ++k) v.push_back(j == ny / 2 ? 1.0 : -1.0);
  const auto files = revwave::write_central_slices(path("g"), {nx, ny, nz}, v, 1.0);
  ASSERT_EQ(files, (std::vector<std::string>{path("g_xz.png"), path("g_yz.png"), path("g_xy.png")}));
  const std::uint32_t up = 400 / 5;
  const auto xz = read_png(files[0]), yz = read_png(files[1]), xy = read_png(files[2]);
  ASSERT_EQ(xz.width, nx * up);
  ASSERT_EQ(xz.height, nz * up);
  ASSERT_EQ(yz.width, ny * up);
  ASSERT_EQ(yz.height, nz * up);
  ASSERT_EQ(xy.width, ny * up);
  ASSERT_EQ(xy.height, nx * up);
  for (std::uint32_t r = 0; r < xz.height; r += up)
    for (std::uint32_t c = 0; c < xz.width; c += up) EXPECT_TRUE(reddish(xz.at(r, c))) << r << ", " << c;
  for (std::uint32_t j = 0; j < ny; ++j) {
    EXPECT_EQ(reddish(yz.at(0, j * up)), j == ny / 2) << j;
    EXPECT_EQ(bluish(xy.at(up, j * up)), j != ny / 2) << j;
  }
}

TEST_F(PngImageTest, ARecordPictureIsTimeDownTheRows) {
  const std::int64_t nt = 8, nrec = 2;
  std::vector<double> traces(static_cast<std::size_t>(nt * nrec), 0.0);
  traces[0] = 1.0;   // t = 0, receiver 0
  traces[15] = -1.0;  // the last sample of receiver 1
  revwave::write_record_picture(path("shot.png"), traces, nt, nrec);
  const auto pic = read_png(path("shot.png"));
  const std::uint32_t up = 400 / 8;
  ASSERT_EQ(pic.width, nrec * up);
  ASSERT_EQ(pic.height, nt * up);
  EXPECT_TRUE(reddish(pic.at(0, 0)));
  EXPECT_TRUE(bluish(pic.at(pic.height - 1, pic.width - 1)));
  EXPECT_TRUE(white(pic.at(0, pic.width - 1)));
}
