// Binomial checkpointing: closed forms in 128-bit arithmetic and the pull-based schedule.
#include "revwave/schedule/revolve.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "revolve_reversal.hpp"
#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

// min(C(s + r, s), cap), 0 for r < 0; cap <= 2^64. Each factor of the running product
// C(n - k + i, i) is at least 2 (n - k >= k >= i), so the loop stops within ~64 turns
// and c * (n - k + i) < 2^64 * 2^64 never overflows.
u128 beta_capped(u128 s, std::int64_t r, u128 cap) {
  if (r < 0) return 0;
  const u128 ur = static_cast<u128>(r);
  const u128 k = std::min(s, ur);
  const u128 n = s + ur;
  u128 c = 1;
  for (u128 i = 1; i <= k; ++i) {
    c = c * (n - k + i) / i;
    if (c >= cap) return cap;
  }
  return std::min(c, cap);
}

// r = least r with beta(s, r) >= l and the three binomials around it, exactly.
struct Repetition {
  std::int64_t r;
  u128 beta_r;    // C(s + r, s)        >= l
  u128 beta_rm1;  // C(s + r - 1, s)    <  l   (0 when r = 0)
  u128 beta_rm2;  // C(s + r - 2, s)           (0 when r < 2)
};

// Requires l >= 1, s >= 1. Values stay below l (s + r) < 2^127.
Repetition repetition(std::int64_t l, std::int64_t s) {
  const u128 us = static_cast<u128>(s);
  const u128 ul = static_cast<u128>(l);
  Repetition rep{0, 1, 0, 0};
  // Incremental: C(s + r, s) = C(s + r - 1, s) (s + r) / r. Enough for all but tiny s.
  // 64-bit division while the product fits: this runs once per store of the schedule.
  while (rep.beta_r < ul && rep.r < 64) {
    ++rep.r;
    rep.beta_rm2 = rep.beta_rm1;
    rep.beta_rm1 = rep.beta_r;
    const u128 product = rep.beta_r * (us + static_cast<u128>(rep.r));
    rep.beta_r = product >> 64 == 0 ? static_cast<std::uint64_t>(product) / static_cast<std::uint64_t>(rep.r)
                                    : product / static_cast<u128>(rep.r);
  }
  if (rep.beta_r >= ul) return rep;
  // Small s, huge l: bisect r in (rep.r, l - 1]; C(s + l - 1, s) >= l for s >= 1.
  std::int64_t lo = rep.r;  // beta(s, lo) < l
  std::int64_t hi = l - 1;  // beta(s, hi) >= l
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (beta_capped(us, mid, ul) >= ul)
      hi = mid;
    else
      lo = mid;
  }
  rep.r = hi;
  rep.beta_rm1 = beta_capped(us, hi - 1, ul);  // < l, hence exact
  rep.beta_rm2 = beta_capped(us, hi - 2, ul);
  rep.beta_r = rep.beta_rm1 * (us + static_cast<u128>(hi)) / static_cast<u128>(hi);
  return rep;
}

// "NAME = VALUE must be >= MIN", built only on failure: revolve_split runs once per store.
void require_at_least(const char* name, std::int64_t value, std::int64_t min) {
  if (value < min)
    throw InputError(std::string(name) + " = " + std::to_string(value) + " must be >= " + std::to_string(min));
}

std::int64_t to_int64(u128 v, const std::string& what) {
  if (v > static_cast<u128>(int64_max)) throw InputError(what + " exceeds 2^63 - 1");
  return static_cast<std::int64_t>(v);
}

// t(l, s) without argument checks; l >= 0, s >= 1.
u128 advances(std::int64_t l, std::int64_t s) {
  if (l <= 1) return 0;
  const Repetition rep = repetition(l, s);
  // C(s + r, s + 1) = C(s + r - 1, s) (s + r) / (s + 1), exact; < r l since t >= 0.
  const u128 us = static_cast<u128>(s);
  const u128 ur = static_cast<u128>(rep.r);
  const u128 beta_next = rep.beta_rm1 * (us + ur) / (us + 1);
  return ur * static_cast<u128>(l) - beta_next;
}

// min(C(s + r, s), 2^64) (0 for r < 0): exact for every value below 2^64, which is all that
// advanced_reverses adds or subtracts; larger ones are only compared with l < 2^63.
u128 beta(std::int64_t s, std::int64_t r) { return beta_capped(static_cast<u128>(s), r, u128{1} << 64); }

// The reverses of RevolveSchedule over a range of l steps with s checkpoints that come right
// after an advance (the others come right after the restore or store of their own position,
// so the schedule stores every position except these, 0 and nothing else: N - 1 - P stores).
//
// The schedule splits a range (l, s) at m = max(beta(s, r-2), l - beta(s-1, r)) and handles the
// tail (l - m, s - 1) from a store at m, then the head (m, s): P(l, s) = P(l - m, s - 1) + P(m, s)
// for s >= 2, P(l, 1) = l - 1, P(1, s) = 0. For l = beta(s, r) the split is binomial on both sides
// and induction gives P(beta(s, r), s) = beta(s, r - 1). So each split has at most one side that
// is not a binomial size:
//   case 1, l - beta(s, r-2) <= beta(s-1, r): head beta(s, r-2), tail (l - beta(s, r-2), s - 1),
//           whose repetition number is r again;
//   case 2, otherwise: tail beta(s-1, r), head (l - beta(s-1, r), s) with repetition number r - 1.
// Case 2 happens at most r times; runs of case 1 (s - 1, s - 2, ...) are summed in closed form
// (hockey-stick identity) up to the last j where it holds, found by bisection since
// f(j) = l_j - beta(s-j, r-2) - beta(s-j-1, r) grows with j (f(j+1) - f(j) = beta(s-j-1, r-1) -
// beta(s-j-1, r-2) >= 0).
u128 advanced_reverses(std::int64_t l, std::int64_t s) {
  if (l <= 1) return 0;
  std::int64_t r = repetition(l, s).r;
  u128 acc = 0;
  for (;;) {
    if (l <= 1) return acc;
    if (s == 1) return acc + static_cast<u128>(l - 1);
    if (r <= 1) return acc + 1;  // l <= s + 1: every position but 0 and l - 1 is stored
    const u128 head = beta(s, r - 2);
    if (static_cast<u128>(l) - head <= beta(s - 1, r)) {
      const i128 top = static_cast<i128>(beta(s, r - 1));
      const auto f = [&](std::int64_t j) {
        return static_cast<i128>(l) - top + static_cast<i128>(beta(s - j, r - 1)) -
               static_cast<i128>(beta(s - j, r - 2)) - static_cast<i128>(beta(s - j - 1, r));
      };
      std::int64_t lo = 1, hi = s - 1;  // f(0) <= 0; the largest k with f(k - 1) <= 0
      while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (f(mid - 1) <= 0)
          lo = mid;
        else
          hi = mid - 1;
      }
      acc += beta(s, r - 2) - beta(s - lo, r - 2);
      l -= static_cast<std::int64_t>(static_cast<u128>(top) - beta(s - lo, r - 1));
      s -= lo;
    } else {
      acc += beta(s - 1, r - 1);
      l -= static_cast<std::int64_t>(beta(s - 1, r));
      --r;
    }
  }
}

}  // namespace

ScheduleCounts revolve_counts(std::int64_t N, std::int64_t S) {
  require_at_least("Revolve steps N", N, 1);
  require_at_least("Revolve slots S", S, 1);
  ScheduleCounts c;
  c.steps = N;
  c.reverses = N;
  c.forward_steps = optimal_forward_steps(N, S);  // InputError beyond 2^63 - 1
  c.advances = c.forward_steps - N;
  c.restores = N - 1;  // every reverse but the last is followed by one
  const std::int64_t slots = std::min(S, std::max<std::int64_t>(N - 2, 0));
  c.stores = N - 1 - static_cast<std::int64_t>(advanced_reverses(N, slots + 1));
  c.peak_slots = slots;  // the first descent fills them all
  c.recompute_ratio = static_cast<double>(c.forward_steps) / static_cast<double>(N);
  return c;
}

std::int64_t revolve_repetitions(std::int64_t l, std::int64_t s) {
  require_at_least("steps to reverse l", l, 0);
  require_at_least("checkpoints s", s, 1);
  if (l <= 1) return 0;
  return repetition(l, s).r;
}

std::int64_t revolve_advances(std::int64_t l, std::int64_t s) {
  require_at_least("steps to reverse l", l, 0);
  require_at_least("checkpoints s", s, 1);
  return to_int64(advances(l, s), "advance count t(" + std::to_string(l) + ", " + std::to_string(s) + ")");
}

std::int64_t revolve_split(std::int64_t l, std::int64_t s) {
  require_at_least("range l", l, 2);
  require_at_least("checkpoints s", s, 2);
  // t(x, s) is the upper envelope of the lines L_k(x) = k x - C(s + k, s + 1); L_k
  // touches it on [beta(s, k - 1), beta(s, k)]. By Pascal's rule
  //   m + L^s_{r-1}(m) + L^{s-1}_r(l - m) = r l - C(s + r, s + 1) = t(l, s)  for every m,
  // so m + t(m, s) + t(l - m, s - 1) >= t(l, s), with equality iff both lines touch:
  //   beta(s, r-2) <= m <= beta(s, r-1)  and  beta(s-1, r-1) <= l - m <= beta(s-1, r).
  // Griewank's theorem (min over m equals t(l, s)) makes this interval non-empty.
  const Repetition rep = repetition(l, s);
  const i128 il = l;
  const i128 tail_r = static_cast<i128>(rep.beta_r - rep.beta_rm1);  // beta(s - 1, r)
  // The smallest optimal split: measured to need fewer stores than the largest
  // (N = 10^6, S = 10: 478821 against 497576). It lies in [1, l - 1] since
  // beta(s, r - 2) < l and beta(s - 1, r) >= 1.
  return static_cast<std::int64_t>(std::max({static_cast<i128>(rep.beta_rm2), il - tail_r, i128{1}}));
}

std::int64_t optimal_forward_steps(std::int64_t N, std::int64_t S) {
  require_at_least("steps N", N, 0);
  require_at_least("slots S", S, 0);
  // t(N, s) = N - 1 for every s >= N - 1: more slots than N - 2 change nothing.
  const std::int64_t slots = std::min(S, std::max<std::int64_t>(N - 2, 0));
  const u128 total = static_cast<u128>(N) + advances(N, slots + 1);
  return to_int64(total, "forward step count of " + std::to_string(N) + " steps with " + std::to_string(S) + " slots");
}

RevolveSchedule::RevolveSchedule(std::int64_t steps, std::int64_t slots) : steps_(steps), slots_(0), capo_(steps) {
  require_at_least("Revolve steps N", steps, 1);
  require_at_least("Revolve slots S", slots, 1);
  slots_ = std::min(slots, std::max<std::int64_t>(steps - 2, 0));
  stack_.reserve(static_cast<std::size_t>(slots_) + 1);
  stack_.push_back({0, initial_slot});
}

Action RevolveSchedule::next() {
  if (done_) return Action{ActionKind::end, 0, initial_slot};
  // Slots are a stack: slot k holds the (k + 1)-th live checkpoint, and the newest is dropped first.
  const auto live = [this] { return static_cast<std::int64_t>(stack_.size()) - 1; };
  detail::RevolveReversal<Checkpoint> sweep{stack_, position_, capo_, pending_store_, first_, done_, last_use_};
  return sweep.next(
      live, [](std::int64_t) {}, [&] { return slots_ - live(); });
}

}  // namespace revwave
