// Multi-level checkpointing: a binomial schedule whose stack depths are placed on tiers by DP.
#include "revwave/schedule/multilevel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_set>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/schedule/revolve.hpp"

namespace revwave {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// The schedule with no slot: advance from the recreated initial state to each step.
class NoSlotSchedule final : public Schedule {
 public:
  explicit NoSlotSchedule(std::int64_t steps) : capo_(steps) {}
  Action next() override {
    if (done_) return Action{ActionKind::end, 0, initial_slot};
    if (position_ < 0) {
      position_ = 0;
      last_use_ = capo_ == 1;
      return Action{ActionKind::restore, 0, initial_slot};
    }
    if (position_ == capo_ - 1) {
      const Action a{first_ ? ActionKind::first_reverse : ActionKind::reverse, position_, initial_slot};
      first_ = false;
      capo_ = position_;
      position_ = -1;
      done_ = capo_ == 0;
      return a;
    }
    position_ = capo_ - 1;
    return Action{ActionKind::advance, position_, initial_slot};
  }
  std::int64_t slots() const override { return 0; }
  bool restore_is_last_use() const override { return last_use_; }

 private:
  std::int64_t capo_;
  std::int64_t position_ = 0;
  bool first_ = true, done_ = false, last_use_ = false;
};

// What RevolveSchedule(N, s) does with each stack depth (= its slot id).
struct DepthUse {
  std::int64_t forward_steps = 0;
  std::vector<std::int64_t> stores, restores;
};

DepthUse depth_use(std::int64_t steps, std::int64_t slots) {
  DepthUse u;
  if (slots == 0) {  // closed form: advances sum to N (N - 1) / 2
    u.forward_steps = steps + steps * (steps - 1) / 2;
    return u;
  }
  RevolveSchedule s(steps, slots);
  u.stores.assign(static_cast<std::size_t>(s.slots()), 0);
  u.restores.assign(static_cast<std::size_t>(s.slots()), 0);
  std::int64_t position = 0;
  for (Action a = s.next(); a.kind != ActionKind::end; a = s.next()) {
    switch (a.kind) {
      case ActionKind::advance:
        u.forward_steps += a.step - position;
        position = a.step;
        break;
      case ActionKind::store: ++u.stores[a.slot]; break;
      case ActionKind::restore:
        position = a.step;
        if (a.slot != initial_slot) ++u.restores[a.slot];
        break;
      case ActionKind::first_reverse:
      case ActionKind::reverse: ++u.forward_steps; break;
      case ActionKind::end: break;
    }
  }
  return u;
}

double depth_cost(const DepthUse& u, std::size_t d, const Tier& t) {
  return static_cast<double>(u.stores[d]) * t.store_cost + static_cast<double>(u.restores[d]) * t.restore_cost;
}

// Cheapest placement of the depths on the tiers: tier index per depth.
// Exact DP over (depth, slots used in tiers 0..T-2); greedy when that table is too big.
std::vector<int> place_depths(const DepthUse& u, const std::vector<Tier>& tiers) {
  const std::size_t depths = u.stores.size();
  const int T = static_cast<int>(tiers.size());
  std::vector<int> tier_of_depth(depths, 0);
  if (depths == 0) return tier_of_depth;
  std::vector<std::int64_t> radix(static_cast<std::size_t>(T), 1), stride(static_cast<std::size_t>(T), 0);
  double states = 1;
  for (int t = 0; t + 1 < T; ++t) {
    radix[t] = std::min<std::int64_t>(tiers[t].slots, static_cast<std::int64_t>(depths)) + 1;
    states *= static_cast<double>(radix[t]);
  }
  if (states * static_cast<double>(depths) > 2e7) {
    std::vector<std::size_t> order(depths);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return u.stores[a] + u.restores[a] > u.stores[b] + u.restores[b]; });
    std::vector<std::int64_t> left(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) left[t] = tiers[t].slots;
    for (const std::size_t d : order) {
      int best = -1;
      for (int t = 0; t < T; ++t)
        if (left[t] > 0 && (best < 0 || depth_cost(u, d, tiers[t]) < depth_cost(u, d, tiers[best]))) best = t;
      tier_of_depth[d] = best;
      --left[best];
    }
    return tier_of_depth;
  }
  const std::size_t n_states = static_cast<std::size_t>(states);
  std::int64_t s = 1;
  for (int t = 0; t + 1 < T; ++t) {
    stride[t] = s;
    s *= radix[t];
  }
  const auto used = [&](std::size_t state, int t) {
    return static_cast<std::int64_t>(state / static_cast<std::size_t>(stride[t])) % radix[t];
  };
  std::vector<double> cost(n_states, infinity), next(n_states);
  std::vector<signed char> choice(depths * n_states, -1);
  cost[0] = 0.0;
  for (std::size_t d = 0; d < depths; ++d) {
    std::fill(next.begin(), next.end(), infinity);
    for (std::size_t st = 0; st < n_states; ++st) {
      if (cost[st] == infinity) continue;
      std::int64_t in_others = 0;
      for (int t = 0; t + 1 < T; ++t) in_others += used(st, t);
      for (int t = 0; t < T; ++t) {
        std::size_t to = st;
        if (t + 1 < T) {
          if (used(st, t) + 1 >= radix[t]) continue;
          to += static_cast<std::size_t>(stride[t]);
        } else if (static_cast<std::int64_t>(d) - in_others >= tiers[t].slots) {
          continue;
        }
        const double c = cost[st] + depth_cost(u, d, tiers[t]);
        if (c < next[to]) {
          next[to] = c;
          choice[d * n_states + to] = static_cast<signed char>(t);
        }
      }
    }
    cost.swap(next);
  }
  std::size_t st = static_cast<std::size_t>(std::min_element(cost.begin(), cost.end()) - cost.begin());
  for (std::size_t d = depths; d-- > 0;) {
    const int t = choice[d * n_states + st];  // NOLINT(bugprone-signed-char-misuse): a tier index (< 128), or -1
    if (t < 0) throw std::logic_error("multilevel: no tier placement found for depth " + std::to_string(d));
    tier_of_depth[d] = t;
    if (t + 1 < T) st -= static_cast<std::size_t>(stride[t]);
  }
  return tier_of_depth;
}

std::vector<std::int64_t> slots_for(const std::vector<int>& tier_of_depth, const std::vector<Tier>& tiers) {
  std::vector<std::int64_t> next_id(tiers.size(), 0);
  for (std::size_t t = 1; t < tiers.size(); ++t) next_id[t] = next_id[t - 1] + tiers[t - 1].slots;
  std::vector<std::int64_t> ids;
  ids.reserve(tier_of_depth.size());
  for (const int t : tier_of_depth) ids.push_back(next_id[static_cast<std::size_t>(t)]++);
  return ids;
}

double plan_time(const DepthUse& u, const std::vector<std::int64_t>& ids, const std::vector<Tier>& tiers) {
  double time = static_cast<double>(u.forward_steps);
  for (std::size_t d = 0; d < ids.size(); ++d)
    time += depth_cost(u, d, tiers[static_cast<std::size_t>(tier_of_slot(tiers, ids[d]))]);
  return time;
}

std::int64_t total_of(const std::vector<Tier>& tiers) {
  std::int64_t total = 0;
  for (const Tier& t : tiers) total += t.slots;
  return total;
}

}  // namespace

void validate_tiers(const std::vector<Tier>& tiers) {
  if (tiers.empty()) throw InputError("multilevel: at least one tier is required");
  if (tiers.size() > 100) throw InputError("multilevel: " + std::to_string(tiers.size()) + " tiers, at most 100");
  std::vector<std::string> errors;
  std::int64_t total = 0;
  for (const Tier& t : tiers) {
    const std::string name = "tier '" + t.name + "'";
    if (t.slots < 0)
      errors.push_back(name + " slots " + std::to_string(t.slots) + " must be >= 0");
    else if (__builtin_add_overflow(total, t.slots, &total))
      errors.push_back("tier capacities sum beyond 2^63 - 1 slots");
    // Costs are in forward steps; past max_tier_cost a schedule's total (up to N stores and
    // restores a depth) would lose every step's worth, and past about 1e292 it overflows.
    const auto cost_error = [&](const char* what, double c) {
      if (!std::isfinite(c) || c < 0 || c > max_tier_cost)
        errors.push_back(name + " " + what + " cost " + number_text(c) + " must be finite, >= 0 and at most " +
                         number_text(max_tier_cost) + " forward steps");
    };
    cost_error("store", t.store_cost);
    cost_error("restore", t.restore_cost);
  }
  if (errors.empty() && total <= 0) errors.push_back("tier capacities sum to 0 slots; need at least 1");
  if (errors.empty()) return;
  std::string line = errors[0];
  for (std::size_t i = 1; i < errors.size(); ++i) line += "; " + errors[i];
  throw InputError(line);
}

int tier_of_slot(const std::vector<Tier>& tiers, std::int64_t slot) {
  if (slot < 0) return -1;
  std::int64_t end = 0;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    end += tiers[t].slots;
    if (slot < end) return static_cast<int>(t);
  }
  throw std::logic_error("slot " + std::to_string(slot) + " beyond the tiers' " + std::to_string(end) + " slots");
}

MultilevelCounts count_multilevel(Schedule& schedule, const std::vector<Tier>& tiers, double slot_bytes) {
  MultilevelCounts m;
  for (const Tier& t : tiers) m.tiers.push_back(TierCounts{t.name});
  std::unordered_set<std::int64_t> used;  // the slots stored to so far (a tier may hold 1e12 it never uses)
  ScheduleCounts& c = m.counts;
  std::int64_t position = 0;
  for (Action a = schedule.next(); a.kind != ActionKind::end; a = schedule.next()) {
    switch (a.kind) {
      case ActionKind::advance:
        c.advances += a.step - position;
        position = a.step;
        break;
      case ActionKind::store: {
        ++c.stores;
        TierCounts& tc = m.tiers[static_cast<std::size_t>(tier_of_slot(tiers, a.slot))];
        ++tc.stores;
        if (used.insert(a.slot).second) {
          ++tc.peak_live;
          ++c.peak_slots;
        }
        break;
      }
      case ActionKind::restore:
        ++c.restores;
        position = a.step;
        if (a.slot != initial_slot) ++m.tiers[static_cast<std::size_t>(tier_of_slot(tiers, a.slot))].restores;
        break;
      case ActionKind::first_reverse:
      case ActionKind::reverse: ++c.reverses; break;
      case ActionKind::end: break;
    }
  }
  c.steps = c.reverses;
  c.forward_steps = c.advances + c.reverses;
  c.recompute_ratio = c.steps > 0 ? static_cast<double>(c.forward_steps) / static_cast<double>(c.steps) : 0.0;
  m.predicted_time = static_cast<double>(c.forward_steps);
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    TierCounts& tc = m.tiers[t];
    tc.bytes_moved = static_cast<double>(tc.stores + tc.restores) * slot_bytes;
    tc.cost =
        static_cast<double>(tc.stores) * tiers[t].store_cost + static_cast<double>(tc.restores) * tiers[t].restore_cost;
    m.predicted_time += tc.cost;
  }
  return m;
}

double predicted_time(Schedule& schedule, const std::vector<Tier>& tiers) {
  return count_multilevel(schedule, tiers).predicted_time;
}

double revolve_fastest_tier_time(std::int64_t steps, const std::vector<Tier>& tiers) {
  validate_tiers(tiers);
  if (tiers[0].slots == 0) {
    NoSlotSchedule none(steps);
    return predicted_time(none, tiers);
  }
  RevolveSchedule fastest(steps, tiers[0].slots);
  return predicted_time(fastest, tiers);
}

double revolve_all_slots_time(std::int64_t steps, const std::vector<Tier>& tiers) {
  validate_tiers(tiers);
  RevolveSchedule all(steps, total_of(tiers));
  return predicted_time(all, tiers);
}

MultilevelSchedule::MultilevelSchedule(std::int64_t steps, std::vector<Tier> tiers)
    : steps_(steps), tiers_(std::move(tiers)) {
  if (steps < 1) throw InputError("multilevel steps N = " + std::to_string(steps) + " must be >= 1");
  validate_tiers(tiers_);
  total_slots_ = total_of(tiers_);
  const std::int64_t useful = std::min(total_slots_, std::max<std::int64_t>(steps - 2, 0));
  // Candidate binomial slot counts: all of 0..useful, or a geometric subset plus the
  // tier boundaries when simulating each (about 3N actions) would cost too much.
  std::vector<std::int64_t> candidates;
  if (static_cast<double>(steps) * static_cast<double>(useful + 1) <= 3e7) {
    for (std::int64_t s = useful; s >= 0; --s) candidates.push_back(s);
  } else {
    candidates.push_back(useful);
    for (std::int64_t s = 1; s < useful; s = std::max(s + 1, s * 5 / 4)) candidates.push_back(s);
    std::int64_t boundary = 0;
    for (const Tier& t : tiers_) {
      boundary += t.slots;
      if (boundary <= useful) candidates.push_back(boundary);
    }
    if (steps <= 3037000499) candidates.push_back(0);  // N (N - 1) / 2 fits
  }
  const std::int64_t c0 = std::min(tiers_[0].slots, useful);
  planned_time_ = infinity;
  // Baseline "all slots, ids as they come" first: with equal costs it wins ties.
  const auto consider = [&](std::int64_t s, const std::vector<std::int64_t>& ids, double time) {
    if (time < planned_time_) {
      planned_time_ = time;
      binomial_slots_ = s;
      depth_to_slot_ = ids;
    }
  };
  const auto identity = [](std::size_t n) {
    std::vector<std::int64_t> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
  };
  {
    const DepthUse all = depth_use(steps, useful);
    consider(useful, identity(all.stores.size()), plan_time(all, identity(all.stores.size()), tiers_));
    const DepthUse fast = depth_use(steps, c0);
    consider(c0, identity(fast.stores.size()), plan_time(fast, identity(fast.stores.size()), tiers_));
  }
  for (const std::int64_t s : candidates) {
    const DepthUse u = depth_use(steps, s);
    const std::vector<std::int64_t> ids = slots_for(place_depths(u, tiers_), tiers_);
    consider(s, ids, plan_time(u, ids, tiers_));
  }
  if (binomial_slots_ == 0)
    inner_ = std::make_unique<NoSlotSchedule>(steps);
  else
    inner_ = std::make_unique<RevolveSchedule>(steps, binomial_slots_);
}

MultilevelSchedule::~MultilevelSchedule() = default;

Action MultilevelSchedule::next() {
  Action a = inner_->next();
  if ((a.kind == ActionKind::store || a.kind == ActionKind::restore) && a.slot != initial_slot)
    a.slot = depth_to_slot_[static_cast<std::size_t>(a.slot)];
  return a;
}

bool MultilevelSchedule::restore_is_last_use() const { return inner_->restore_is_last_use(); }

}  // namespace revwave
