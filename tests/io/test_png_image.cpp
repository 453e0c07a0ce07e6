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
  EXPECT_EQ(be32(s, 16), 15u);                                                          // width  = cols * upscale
  EXPECT_EQ(be32(s, 20), 12u);                                                          // height = rows * upscale
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
  EXPECT_EQ(pic.at(0, 2), pic.at(0, 3));                         // beyond clip saturates
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

// Where the plot lies in a labelled picture, found as a reader finds it: the black frame around it
// (the first black pixel from the left on the middle row, the first from the top on the middle
// column); the plot starts one pixel inside.
struct Frame {
  std::uint32_t left = 0, top = 0, right = 0, bottom = 0;  // the frame lines
};

bool black(const std::array<int, 3>& c) { return c[0] == 0 && c[1] == 0 && c[2] == 0; }

// The tick marks under the plot: the columns with a black pixel two rows below the frame.
template <class Picture>
std::vector<std::uint32_t> x_ticks(const Picture& pic, const Frame& f) {
  std::vector<std::uint32_t> cols;
  for (std::uint32_t c = f.left; c <= f.right; ++c)
    if (black(pic.at(f.bottom + 2, c))) cols.push_back(c);
  return cols;
}
template <class Picture>
std::vector<std::uint32_t> y_ticks(const Picture& pic, const Frame& f) {
  std::vector<std::uint32_t> rows;
  for (std::uint32_t r = f.top; r <= f.bottom; ++r)
    if (black(pic.at(r, f.left - 2))) rows.push_back(r);
  return rows;
}

// Where the picture says a cell's centre is, in metres: its pixel between the ticks at 0 m and
// `step` m (the first two; a 0..487.5 m axis is ticked every 100 m).
double metres_at(double pixel, const std::vector<std::uint32_t>& ticks, double step) {
  return (pixel - ticks[0]) / double(ticks[1] - ticks[0]) * step;
}

// The frame: the first row with a black run of 20 pixels or more (text and tick marks are shorter,
// the colour bar's frame lies right of the plot's) is its top line; the bottom line is the next row
// black over the same columns.
template <class Picture>
Frame find_frame(const Picture& pic) {
  Frame f;
  for (std::uint32_t r = 0; r < pic.height && f.right == 0; ++r) {
    std::uint32_t best = 0, best_start = 0;
    for (std::uint32_t c = 0; c < pic.width;) {
      std::uint32_t e = c;
      while (e < pic.width && black(pic.at(r, e))) ++e;
      if (e - c > best) {
        best = e - c;
        best_start = c;
      }
      c = e + 1;
    }
    if (best >= 20) {
      f.top = r;
      f.left = best_start;
      f.right = best_start + best - 1;
    }
  }
  for (std::uint32_t r = f.top + 2; r < pic.height; ++r) {
    bool line = true;
    for (std::uint32_t c = f.left; c <= f.right && line; ++c) line = black(pic.at(r, c));
    if (line) {
      f.bottom = r;
      break;
    }
  }
  return f;
}

// A model with one marked cell at known metres: in the x-z slice the red cell's centre is where the
// axes' ticks say 250 m across and 100 m down, the plot is the slice's size times the upscale, and
// the title band holds text. Breaking the mapping (a tick half a cell off, a cell a row off) moves
// the metres read here by half a cell (6.25 m) or more.
TEST_F(PngImageTest, AMarkedCellLandsWhereTheAxesSay) {
  const std::int64_t nx = 40, ny = 8, nz = 40;  // both axes 0 .. 487.5 m: ticked every 100 m
  const double h = 12.5;
  std::vector<double> v(static_cast<std::size_t>(nx * ny * nz), 0.0);
  const std::int64_t i = 20, k = 8;  // x = 250 m, z = 100 m
  v[static_cast<std::size_t>((i * ny + ny / 2) * nz + k)] = 1.0;
  const auto files = revwave::write_central_slices(path("m"), {nx, ny, nz}, v, 1.0, {"marked cell", "m/s", h});
  ASSERT_EQ(files, (std::vector<std::string>{path("m_xz.png"), path("m_yz.png"), path("m_xy.png")}));
  const auto pic = read_png(files[0]);
  const std::uint32_t up = 400 / 40;
  const Frame f = find_frame(pic);
  ASSERT_LT(f.right, pic.width);
  EXPECT_EQ(f.right - f.left - 1, nx * up);  // the plot: nx columns of up pixels
  EXPECT_EQ(f.bottom - f.top - 1, nz * up);  // nz rows
  EXPECT_GT(pic.width, f.right + 40);        // room for the colour bar
  // The red block.
  std::uint32_t r0 = pic.height, r1 = 0, c0 = pic.width, c1 = 0;
  for (std::uint32_t r = f.top + 1; r < f.bottom; ++r)
    for (std::uint32_t c = f.left + 1; c < f.right; ++c)
      if (reddish(pic.at(r, c))) {
        r0 = std::min(r0, r);
        r1 = std::max(r1, r);
        c0 = std::min(c0, c);
        c1 = std::max(c1, c);
      }
  ASSERT_EQ(c1 - c0 + 1, up);
  ASSERT_EQ(r1 - r0 + 1, up);
  const auto xt = x_ticks(pic, f), zt = y_ticks(pic, f);
  ASSERT_GE(xt.size(), 4u);                      // 0, 100, 200, 300, 400 m
  ASSERT_GE(zt.size(), 4u);                      // 0, 100, 200, 300, 400 m
  EXPECT_NEAR(xt[0], f.left + 1 + up / 2, 1.0);  // 0 m: the first column's centre
  EXPECT_NEAR(metres_at(0.5 * (c0 + c1), xt, 100.0), 250.0, h / 4);
  EXPECT_NEAR(metres_at(0.5 * (r0 + r1), zt, 100.0), 100.0, h / 4);
  // The title band: text (dark pixels) in the rows above the plot's labels, and none without a title.
  const auto dark_in_title_band = [](const auto& p) {
    int n = 0;
    for (std::uint32_t r = 0; r < revwave::PictureLayout::title_band; ++r)
      for (std::uint32_t c = 0; c < p.width; ++c) n += black(p.at(r, c));
    return n;
  };
  EXPECT_GT(dark_in_title_band(pic), 100);
  revwave::PictureLabels untitled;
  revwave::write_labelled_png(path("u.png"), v.data(), 4, 5, 1.0, 10, untitled);
  EXPECT_EQ(dark_in_title_band(read_png(path("u.png"))), 0);
}

// A plane (ny = 1) is drawn once, whole: PREFIX_xz.png only, nx by nz blocks (its y-z and x-y
// slices would be one pixel wide).
TEST_F(PngImageTest, APlaneIsDrawnAsOnePicture) {
  const std::int64_t nx = 20, ny = 1, nz = 10;
  std::vector<double> v(static_cast<std::size_t>(nx * ny * nz), 1.0);
  const auto files = revwave::write_central_slices(path("p"), {nx, ny, nz}, v, 1.0, {"plane", "1", 10.0});
  ASSERT_EQ(files, (std::vector<std::string>{path("p_xz.png")}));
  EXPECT_FALSE(std::filesystem::exists(path("p_yz.png")));
  EXPECT_FALSE(std::filesystem::exists(path("p_xy.png")));
  const auto pic = read_png(files[0]);
  const Frame f = find_frame(pic);
  const std::uint32_t up = 400 / 20;
  EXPECT_EQ(f.right - f.left - 1, nx * up);
  EXPECT_EQ(f.bottom - f.top - 1, nz * up);
}

// The shot picture is gained by t, and says so: a late arrival 1/20 of an early direct wave, as 3D
// spreading leaves it 20 times later, is drawn as strongly as the direct wave (without the gain it
// would be 1/20 of the colour scale, all but white).
TEST_F(PngImageTest, TheShotPictureIsGainedByTime) {
  const std::int64_t nt = 100, nrec = 10;
  const double dt = 0.01;
  std::vector<double> traces(static_cast<std::size_t>(nt * nrec), 0.0);
  for (std::int64_t r = 0; r < nrec; ++r) {
    for (std::int64_t n = 3; n < 6; ++n) traces[static_cast<std::size_t>(n * nrec + r)] = 1.0;     // direct wave
    for (std::int64_t n = 60; n < 63; ++n) traces[static_cast<std::size_t>(n * nrec + r)] = 0.05;  // reflection
  }
  revwave::write_record_picture(path("s.png"), traces, nt, nrec, dt, "a record");
  const auto pic = read_png(path("s.png"));
  const Frame f = find_frame(pic);
  const std::uint32_t up = 400 / 100;
  const auto strength = [&](std::int64_t n) {  // how far from white the middle receiver's sample is drawn
    const std::array<int, 3> c = pic.at(f.top + 1 + static_cast<std::uint32_t>(n) * up + up / 2,
                                        f.left + 1 + static_cast<std::uint32_t>(nrec / 2) * up + up / 2);
    return 3 * 255 - c[0] - c[1] - c[2];
  };
  EXPECT_GT(strength(61), strength(4) / 2) << "the reflection drawn as strongly as the direct wave";
  EXPECT_GT(strength(4), 0);
}

// The central slices cut the planes through the middle: a value that is positive on the plane
// y = ny / 2 only is red all over the x-z picture, and a red column (y-z) or a red row band (x-y)
// elsewhere; each plot is the plane's size times 400 / max(nx, ny, nz).
TEST_F(PngImageTest, CentralSlicesCutTheMiddlePlanes) {
  const std::int64_t nx = 5, ny = 4, nz = 3;
  std::vector<double> v;
  for (std::int64_t i = 0; i < nx; ++i)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t k = 0; k < nz; ++k) v.push_back(j == ny / 2 ? 1.0 : -1.0);
  const auto files = revwave::write_central_slices(path("g"), {nx, ny, nz}, v, 1.0, {"g", "1", 10.0});
  ASSERT_EQ(files, (std::vector<std::string>{path("g_xz.png"), path("g_yz.png"), path("g_xy.png")}));
  const std::uint32_t up = 400 / 5;
  const auto xz = read_png(files[0]), yz = read_png(files[1]), xy = read_png(files[2]);
  const Frame a = find_frame(xz), b = find_frame(yz), c = find_frame(xy);
  ASSERT_EQ(a.right - a.left - 1, nx * up);
  ASSERT_EQ(a.bottom - a.top - 1, nz * up);
  ASSERT_EQ(b.right - b.left - 1, ny * up);
  ASSERT_EQ(b.bottom - b.top - 1, nz * up);
  ASSERT_EQ(c.right - c.left - 1, ny * up);
  ASSERT_EQ(c.bottom - c.top - 1, nx * up);
  for (std::uint32_t r = 0; r < nz * up; r += up)
    for (std::uint32_t col = 0; col < nx * up; col += up)
      EXPECT_TRUE(reddish(xz.at(a.top + 1 + r, a.left + 1 + col))) << r << ", " << col;
  for (std::uint32_t j = 0; j < ny; ++j) {
    EXPECT_EQ(reddish(yz.at(b.top + 1, b.left + 1 + j * up)), j == ny / 2) << j;
    EXPECT_EQ(bluish(xy.at(c.top + 1 + up, c.left + 1 + j * up)), j != ny / 2) << j;
  }
}

TEST_F(PngImageTest, ARecordPictureIsTimeDownTheRows) {
  const std::int64_t nt = 8, nrec = 2;
  std::vector<double> traces(static_cast<std::size_t>(nt * nrec), 0.0);
  traces[2] = 7.0;    // t = dt, receiver 0 (t = 0 is drawn as 0: the picture is gained by t)
  traces[15] = -1.0;  // the last sample of receiver 1, t = 7 dt
  revwave::write_record_picture(path("shot.png"), traces, nt, nrec, 0.002, "observed data");
  const auto pic = read_png(path("shot.png"));
  const std::uint32_t up = 400 / 8;
  const Frame f = find_frame(pic);
  ASSERT_EQ(f.right - f.left - 1, nrec * up);
  ASSERT_EQ(f.bottom - f.top - 1, nt * up);
  EXPECT_TRUE(reddish(pic.at(f.top + 1 + up, f.left + 1)));
  EXPECT_TRUE(bluish(pic.at(f.bottom - 1, f.right - 1)));
  EXPECT_TRUE(white(pic.at(f.top + 1, f.right - 1)));
  EXPECT_TRUE(white(pic.at(f.top + 1, f.left + 1)));  // row 0 is t = 0
}
