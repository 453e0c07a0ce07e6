// SEG-Y survey files: shot gathers in (any sort order; rev 0, 1 and 2, either byte order, integer,
// IBM and IEEE samples) and out through segyio (rev 1, big-endian, IEEE float samples). Coordinates
// here are metres in the model's frame (origin subtracted).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace revwave {

// One shot gather: a source position, its receivers and their traces.
struct SegyShot {
  std::int64_t field_record = 0;   // FieldRecord of its traces (0 where the file has none)
  std::array<double, 3> source{};  // m; z is depth, positive down
  std::vector<std::array<double, 3>> receivers;
  std::vector<std::int64_t> trace_numbers;  // per receiver: the trace's index in the file, from 0
  std::vector<double> traces;               // (nt, nrec), C order: traces[it * nrec + ir]
};

struct SegySurvey {
  double dt = 0;        // s: whole microseconds, exactly segy_dt(interval)
  std::int64_t nt = 0;  // samples per trace
  std::vector<SegyShot> shots;
  // The Ricker wavelet revwave records in the textual header of the files it writes; f0 = 0 when the
  // file carries none (then the user must say what the source was).
  double f0 = 0, t0 = 0;
  std::string grouping;               // read: "FieldRecord" or "source position"
  std::int64_t dead_traces = 0;       // read: traces skipped because TraceIdentificationCode says dead or dummy
  std::vector<std::string> warnings;  // read: what the reader overrode in the file's headers, one sentence each
};

// Byte order of a file: found from its binary header (rev 2's integer constant, else the sample
// format code, which reads as 1..16 in one order only), or stated.
enum class SegyEndian { detect, big, little };
SegyEndian parse_segy_endian(const std::string& text);  // "big", "little" (InputError naming --segy-endian)
const char* to_string(SegyEndian e);
// Units of the trace headers' coordinates: as the file says (MeasurementSystem, CoordinateUnits), or stated.
enum class SegyUnits { file, metres, feet };
SegyUnits parse_segy_units(const std::string& text);  // "metres", "feet" (InputError naming --segy-units)
const char* to_string(SegyUnits u);

// The file's coordinates minus `origin` are the model's (origin: file coordinates of the model's
// first interior point, depth counted from the elevation datum). The rest override what a file's
// headers say, for files whose headers are wrong in ways the reader cannot see past itself.
struct SegyReadOptions {
  std::array<double, 3> origin{0, 0, 0};
  SegyEndian endian = SegyEndian::detect;  // --segy-endian
  std::int64_t samples = 0;                // --segy-samples: samples per trace (0: from the headers)
  SegyUnits units = SegyUnits::file;       // --segy-units
  std::int32_t coordinate_scalar = 0;  // --segy-coordinate-scalar: instead of every SourceGroupScalar (0: the file's)
  std::int32_t elevation_scalar = 0;   // --segy-elevation-scalar: instead of every ElevationScalar (0: the file's)
};

// Reads a SEG-Y file and groups its traces into shots: by FieldRecord where every live trace has one
// (each record must then have one source position), else by source position; shots in the order of
// their first trace, receivers in file order. What it reads, as segyio does: rev 0, 1 and 2 (extended
// textual headers, counted or ended by an EndText stanza; trace header extensions; rev 2's extended
// sample count and interval and first-trace offset), either byte order, samples as IBM or IEEE float
// (4 bytes), IEEE double, or signed or unsigned integers of 1, 2, 3, 4 or 8 bytes. Sample interval
// and count from the binary header, each trace's own must agree (or be 0).
// Positions: SourceX/Y, GroupX/Y with SourceGroupScalar; source depth SourceDepth - SourceSurfaceElevation
// and receiver depth -ReceiverGroupElevation, both with ElevationScalar; feet (MeasurementSystem 2)
// become metres.
// Where the headers contradict each other but the file settles it, the reader follows the file and
// says so in one sentence of `warnings`: trace headers whose sample count disagrees with the binary
// header's while the file's size is whole traces of the binary header's count only (or of the traces'
// only); CoordinateUnits that say angles on coordinates no angle can have (beyond 180 degrees); a
// little-endian file. What stays ambiguous or broken (not SEG-Y, truncated, an interval 0 or
// disagreeing, variable trace lengths, an unsupported sample format, geographic coordinates, a scalar
// that is not a power of ten, a non-finite sample) is an IoError naming the file, the trace, the rule
// and, where one exists, the --segy-* option that settles it.
SegySurvey read_segy(const std::string& path, const SegyReadOptions& options = {});
// The same from the bytes of a file in memory (`name` names it in messages): the fuzzers' way in.
SegySurvey read_segy_bytes(const std::string& bytes, const std::string& name, const SegyReadOptions& options = {});

// Writes every shot as consecutive traces (shot-sorted: FieldRecord = shot number from 1, channel =
// receiver number from 1), textual header (EBCDIC, saying what revwave wrote and the wavelet), binary
// header (interval, samples, format 5, metres, revision 1), trace headers with scalars chosen so the
// coordinates plus `origin` fit 32 bits at the finest of mm, cm, dm, m, ...; samples as IEEE float32.
// dt must be whole microseconds (segy_interval_us), nt <= 32767 samples; atomically (temporary name,
// renamed when complete). Rule violations are InputErrors, write failures IoErrors; nothing is left then.
void write_segy(const std::string& path, const SegySurvey& survey, const std::array<double, 3>& origin = {0, 0, 0});

// Rounds every coordinate of `survey` to what write_segy(path, survey, origin) stores, so that data
// modelled at the rounded positions are exactly consistent with the file's headers.
void round_to_segy_coordinates(SegySurvey& survey, const std::array<double, 3>& origin = {0, 0, 0});

// dt in whole microseconds: InputError unless dt is one (to 1e-9 us) in 1..32767 us.
std::int64_t segy_interval_us(double dt);
// The time step of a SEG-Y interval: us / 1e6, the one formula every reader and writer here uses.
inline double segy_dt(std::int64_t interval_us) { return static_cast<double>(interval_us) / 1e6; }
// The largest whole-microsecond dt not above `dt` (InputError below 1 us).
double segy_dt_floor(double dt);

// True for a path ending in .sgy or .segy (any case).
bool is_segy_path(const std::string& path);

}  // namespace revwave
