// One plan point's simulated result, typed: what the forked child sends, what the plan's
// database row holds and what the candidate is derived from. Its one serializer is the pair
// to_json / from_json (nlohmann's ADL hooks), so `nlohmann::json(result)` and
// `j.get<PlanPointResult>()` are the only ways it crosses a boundary (issue 29, item 3; the
// step's own pair is in sim/app/analysis/step_analysis.h).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "sim/app/analysis/step_analysis.h"

namespace trn::app {

struct PlanPointResult {
  std::string inputs_hash;     // of what the point is computed from (its database reuse key)
  std::string trnsim_version;  // the build that computed it
  double step_time_s = 0, mfu = 0, tokens_per_s = 0;
  StepBreakdown breakdown;
  double per_rank_bytes = 0, hbm_capacity_bytes = 0;  // memory per rank and HBM per rank
  /// A first step with a compile cache: its total and its parts (seconds, in the order they run).
  struct FirstStep {
    double total_s = 0;
    std::vector<std::pair<std::string, double>> parts;
    /// The part named `name`; 0 when there is none.
    double part(const std::string& name) const;
  };
  FirstStep cold, warm;
  const FirstStep& first_step(bool warm_cache) const { return warm_cache ? warm : cold; }
};

void to_json(nlohmann::json& j, const PlanPointResult& r);
/// Throws nlohmann::json::exception when a field is missing or of the wrong type.
void from_json(const nlohmann::json& j, PlanPointResult& r);

}  // namespace trn::app
