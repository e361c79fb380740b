// CollectiveEngine's run of a plan (the engine's private state, shared by
// collective_engine.cpp and collective_replay.cpp; not for other modules).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "hw/collectives/collective_engine.h"

namespace trn::hw {

namespace detail {
// Whether two sorted footprints share an element.
inline bool meet(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j])
      ++i;
    else
      ++j;
  }
  return false;
}
}  // namespace detail

struct CollectiveEngine::Run {
  CollectiveEngine* engine = nullptr;  // so callbacks capture only (Run*, index)
  std::shared_ptr<const PreparedPlan> prep;
  std::vector<int32_t> waiting;
  size_t left = 0;
  CollectiveResult result;
  std::function<void(const CollectiveResult&)> done;
  // Replays (replay_isolated): launched and when; whether it is being recorded, has met another
  // run on a resource of its footprint, or is a replay; when recorded, its footprint's carried
  // bytes and busy time at its launch.
  bool launched = false, recording = false, disturbed = false, replaying = false;
  double launch_s = 0;
  uint64_t serial = 0;  // of its replay
  std::vector<double> carried0, busy0;
  std::vector<double> ready, issued, over;                 // per transfer, from launch (recording)
  std::shared_ptr<const CollectiveEngine::Record> record;  // replaying
  std::vector<std::pair<int, double>> issue_before;        // its ranks' CC-cores before the replay
};

}  // namespace trn::hw
