// The counting mock and the validator, on hand-written streams: each broken rule must trip.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "revwave/schedule/schedule_counts.hpp"

namespace revwave {
namespace {

// Replays a fixed list of actions, then `end` forever.
class ScriptedSchedule final : public Schedule {
 public:
  ScriptedSchedule(std::vector<Action> actions, std::int64_t slots) : actions_(std::move(actions)), slots_(slots) {}
  Action next() override { return i_ < actions_.size() ? actions_[i_++] : Action{}; }
  std::int64_t slots() const override { return slots_; }

 private:
  std::vector<Action> actions_;
  std::size_t i_ = 0;
  std::int64_t slots_;
};

Action advance(std::int64_t to) { return {ActionKind::advance, to, initial_slot}; }
Action store(std::int64_t slot, std::int64_t at) { return {ActionKind::store, at, slot}; }
Action restore(std::int64_t slot, std::int64_t at) { return {ActionKind::restore, at, slot}; }
Action first_reverse(std::int64_t step) { return {ActionKind::first_reverse, step, initial_slot}; }
Action reverse(std::int64_t step) { return {ActionKind::reverse, step, initial_slot}; }

// A valid 4-step, 1-slot stream: 0 -> 2 (store), reverse 3, 2 from it, then 1, 0 from 0.
std::vector<Action> good_stream() {
  return {advance(2),
          store(0, 2),
          advance(3),
          first_reverse(3),
          restore(0, 2),
          reverse(2),
          restore(initial_slot, 0),
          advance(1),
          reverse(1),
          restore(initial_slot, 0),
          reverse(0)};
}

// Expects validate_schedule to throw a logic_error whose message contains `needle`.
void expect_invalid(std::vector<Action> actions, const std::string& needle, std::int64_t steps = 4,
                    std::int64_t slots = 1) {
  ScriptedSchedule s(std::move(actions), slots);
  try {
    validate_schedule(s, steps, slots);
    ADD_FAILURE() << "accepted; expected: " << needle;
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(ActionToString, Formats) {
  EXPECT_EQ(to_string(advance(17)), "advance 17");
  EXPECT_EQ(to_string(store(3, 12)), "store 3 @ 12");
  EXPECT_EQ(to_string(restore(3, 12)), "restore 3 @ 12");
  EXPECT_EQ(to_string(restore(initial_slot, 0)), "restore initial @ 0");
  EXPECT_EQ(to_string(first_reverse(99)), "first_reverse 99");
  EXPECT_EQ(to_string(reverse(98)), "reverse 98");
  EXPECT_EQ(to_string(Action{}), "end");
}

TEST(CountSchedule, CountsHandWrittenStream) {
  ScriptedSchedule s(good_stream(), 1);
  const ScheduleCounts c = count_schedule(s);
  EXPECT_EQ(c.steps, 4);
  EXPECT_EQ(c.advances, 2 + 1 + 1);
  EXPECT_EQ(c.reverses, 4);
  EXPECT_EQ(c.forward_steps, 8);
  EXPECT_EQ(c.stores, 1);
  EXPECT_EQ(c.restores, 3);
  EXPECT_EQ(c.peak_slots, 1);
  EXPECT_DOUBLE_EQ(c.recompute_ratio, 2.0);
}

TEST(ValidateSchedule, AcceptsHandWrittenStream) {
  ScriptedSchedule s(good_stream(), 1);
  EXPECT_NO_THROW(validate_schedule(s, 4, 1));
}

TEST(ValidateSchedule, RejectsEachBrokenRule) {
  auto with = [](std::size_t i, Action a) {
    auto v = good_stream();
    v[i] = a;
    return v;
  };
  expect_invalid(with(4, restore(0, 1)), "slot holds position 2");   // wrong position
  expect_invalid(with(1, store(0, 1)), "current position is 2");     // store elsewhere
  expect_invalid(with(0, advance(0)), "advance must move forward");  // zero / backwards
  expect_invalid(with(2, advance(4)), "past step 3");                // beyond the next reverse
  expect_invalid(with(3, first_reverse(2)), "step 3 is next");       // out of order
  expect_invalid(with(3, reverse(3)), "must be first_reverse");
  expect_invalid(with(5, first_reverse(2)), "after the first reverse");
  expect_invalid(with(1, store(1, 2)), "slot id out of [0, 1)");  // slot id range
  expect_invalid(with(4, restore(1, 2)), "slot id out of");
  expect_invalid(with(6, restore(initial_slot, 1)), "initial slot holds position 0");
  // Restore of an empty slot.
  expect_invalid({advance(3), first_reverse(3), restore(0, 2)}, "slot 0 is empty");
  // Reverse at the wrong position (restored 0, never advanced to 2).
  expect_invalid({advance(3), first_reverse(3), restore(initial_slot, 0), reverse(2)}, "current position is 0");
  // A reverse consumes the state: advancing or storing needs a restore first.
  expect_invalid({advance(3), first_reverse(3), advance(3)}, "no valid forward state");
  // Position 0 is recreated, never stored.
  expect_invalid({store(0, 0)}, "position 0 is recreated");
  // A step never reversed.
  auto early = good_stream();
  early.resize(early.size() - 2);
  expect_invalid(early, "end before step 0 was reversed");
  // A step reversed twice is caught as out of order.
  auto twice = good_stream();
  twice.push_back(restore(initial_slot, 0));
  twice.push_back(reverse(0));
  expect_invalid(twice, "every step is reversed already");
  // More slots declared than the budget.
  ScriptedSchedule greedy(good_stream(), 2);
  EXPECT_THROW(validate_schedule(greedy, 4, 1), std::logic_error);
  // A stream that never progresses.
  expect_invalid(std::vector<Action>(100, restore(initial_slot, 0)), "without a reverse");
}

TEST(ValidateSchedule, ChecksAnnouncedLastUse) {
  // good_stream restores the initial state twice; calling the first one a last use is a lie.
  ScriptedSchedule lying(good_stream(), 1);
  EXPECT_THROW(validate_schedule(lying, 4, 1, [] { return true; }), std::logic_error);
  ScriptedSchedule modest(good_stream(), 1);
  EXPECT_NO_THROW(validate_schedule(modest, 4, 1, [] { return false; }));
  // A store overwrites the slot: its new content may be restored again.
  std::vector<Action> reuse = {advance(2),
                               store(0, 2),
                               advance(3),
                               first_reverse(3),
                               restore(0, 2),
                               reverse(2),
                               restore(initial_slot, 0),
                               advance(1),
                               store(0, 1),
                               restore(0, 1),
                               reverse(1),
                               restore(initial_slot, 0),
                               reverse(0)};
  const std::vector<bool> flags = {true, false, true, true};
  std::size_t restores = 0;
  ScriptedSchedule honest(reuse, 1);
  EXPECT_NO_THROW(validate_schedule(honest, 4, 1, [&] { return flags.at(restores++); }));
  EXPECT_EQ(restores, flags.size());
}

}  // namespace
}  // namespace revwave
