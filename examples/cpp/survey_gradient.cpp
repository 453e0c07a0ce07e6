// A survey's gradient from memory through the installed package (revwave/revwave.hpp): two shots
// modelled in a true model held in memory, their records handed back as observed data, and the
// gradient in a starting model summed over the shots. Checked against the two shots' gradients taken
// one at a time: the survey sums them, so J and every value of dJ/dm must be their sums (a + b, the
// same bits in either order); exit 1 otherwise.
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <vector>

#include "revwave/revwave.hpp"

namespace {

constexpr revwave::index_t n = 24;  // points per axis, 10 m apart

// A layer of 2300 m/s under 2000 m/s (the true model), or 2000 m/s everywhere (the start).
std::shared_ptr<const revwave::VelocityModel> model(bool layered) {
  auto m = std::make_shared<revwave::VelocityModel>();
  m->shape = {n, n, n};
  m->velocity.resize(static_cast<std::size_t>(n * n * n));
  for (revwave::index_t i = 0; i < n * n * n; ++i) m->velocity[i] = layered && i % n >= n / 2 ? 2300.0 : 2000.0;
  return m;
}

revwave::ProblemOptions problem(std::shared_ptr<const revwave::VelocityModel> m) {
  revwave::ProblemOptions p;
  p.model_values = std::move(m);
  p.tn = 0.3;  // s
  p.backend = revwave::Backend::cpu;
  p.receivers = std::vector<revwave::Vec3>{};
  for (int r = 0; r < 12; ++r) p.receivers->push_back({20.0 * r, 115.0, 20.0});  // a line at 20 m depth
  return p;
}

revwave::GradientJobOptions job() {
  revwave::GradientJobOptions o;
  o.problem = problem(model(false));
  o.problem.receivers.reset();  // the records bring their geometry and time axis
  o.strategy.strategy = revwave::Strategy::revolve;
  o.strategy.snaps = 4;
  return o;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

int main() {
  try {
    std::vector<revwave::ShotRecord> records;
    for (double x : {60.0, 170.0}) {
      revwave::ProblemOptions p = problem(model(true));
      p.sources = std::vector<revwave::Vec3>{{x, 115.0, 20.0}};
      records.push_back(revwave::forward(p).record());
    }
    revwave::SurveyOptions survey;
    survey.observed_records = std::make_shared<const std::vector<revwave::ShotRecord>>(records);
    const revwave::SurveyGradientResult sum = revwave::survey_gradient(job(), survey);

    std::vector<revwave::GradientResult> each;
    for (const revwave::ShotRecord& r : records) {
      revwave::GradientJobOptions o = job();
      o.observed_record = std::make_shared<const revwave::ShotRecord>(r);
      each.push_back(revwave::gradient(o));
    }
    std::printf("survey of %lld shots: J %.17g (shot by shot: %.17g + %.17g)\n", static_cast<long long>(sum.shots),
                sum.objective, each[0].objective, each[1].objective);
    std::printf("|dJ/dm| %.17g\n", sum.gradient_norm);
    bool same = sum.shots == 2 && sum.objective > 0 &&
                same_bits(sum.objective, each[0].objective + each[1].objective) &&
                sum.gradient.size() == each[0].gradient.size();
    for (std::size_t i = 0; same && i < sum.gradient.size(); ++i)
      same = same_bits(sum.gradient[i], each[0].gradient[i] + each[1].gradient[i]);
    if (!same) {
      std::fprintf(stderr, "revwave_survey_example: the survey's J or dJ/dm is not the sum of its shots'\n");
      return 1;
    }
    std::printf("the survey's J and gradient are the sums of its shots', bit for bit\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "revwave_survey_example: %s\n", e.what());
    return 2;
  }
}
