// NumPy .npy arrays: little-endian float32/float64, C order only.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace revwave {

struct NpyArray {
  std::vector<std::int64_t> shape;  // empty for a 0-d (scalar) array
  std::vector<double> data;         // C order, converted to double on read
  bool is_float32 = false;          // the dtype stored in the file
};

// Reads format versions 1.0, 2.0 and 3.0. Accepts only dtype '<f4' or '<f8' with
// fortran_order False; the file must hold exactly the bytes the header promises
// (a short file and trailing bytes are both rejected). Every failure is an IoError
// whose what() is one line "PATH: what is wrong".
NpyArray read_npy(const std::string& path);
// IoError "NAME: is a directory, not a file" (or a FIFO, a socket, a device) unless `path`, after
// its links, is a regular file or does not exist (the open that follows names that): a FIFO would
// block the run forever, a directory gives the C++ library's words. `name` defaults to the path.
void require_regular_file(const std::string& path, const std::string& name = "");
// The same from a seekable stream holding the whole file; `path` names it in messages.
NpyArray read_npy(std::istream& in, const std::string& path);

// Writes format 1.0 (2.0 when the header does not fit 1.0), atomically. Dimensions
// must be >= 0 (std::invalid_argument otherwise); data holds the product of shape.
void write_npy(const std::string& path, const std::vector<std::int64_t>& shape, const float* data);
void write_npy(const std::string& path, const std::vector<std::int64_t>& shape, const double* data);

}  // namespace revwave
