// The plan point's serializer (plan_point.h). The JSON is the database row's (docs/plan.md):
// {breakdown, first_step: {cold, warm: {parts, total_s}}, inputs_hash, memory: {...}, mfu,
// step_time_s, tokens_per_s, trnsim_version}.
#include "sim/app/plan/plan_point.h"

namespace trn::app {

using Pairs = std::vector<std::pair<std::string, double>>;

double PlanPointResult::FirstStep::part(const std::string& name) const {
  for (const auto& [n, v] : parts)
    if (n == name) return v;
  return 0;
}

void to_json(nlohmann::json& j, const PlanPointResult& r) {
  j = nlohmann::json::object();
  j["inputs_hash"] = r.inputs_hash;
  j["trnsim_version"] = r.trnsim_version;
  j["step_time_s"] = r.step_time_s;
  j["mfu"] = r.mfu;
  j["tokens_per_s"] = r.tokens_per_s;
  j["breakdown"] = r.breakdown.named();
  j["memory"] = {{"per_rank_bytes", r.per_rank_bytes}, {"hbm_capacity_bytes", r.hbm_capacity_bytes}};
  for (const auto& [name, f] :
       {std::pair<const char*, const PlanPointResult::FirstStep*>{"cold", &r.cold}, {"warm", &r.warm}}) {
    j["first_step"][name]["total_s"] = f->total_s;
    j["first_step"][name]["parts"] = f->parts;
  }
}

void from_json(const nlohmann::json& j, PlanPointResult& r) {
  r.inputs_hash = j.at("inputs_hash").get<std::string>();
  r.trnsim_version = j.at("trnsim_version").get<std::string>();
  r.step_time_s = j.at("step_time_s").get<double>();
  r.mfu = j.at("mfu").get<double>();
  r.tokens_per_s = j.at("tokens_per_s").get<double>();
  r.breakdown = StepBreakdown::from_named(j.at("breakdown").get<Pairs>());
  r.per_rank_bytes = j.at("memory").at("per_rank_bytes").get<double>();
  r.hbm_capacity_bytes = j.at("memory").at("hbm_capacity_bytes").get<double>();
  for (auto [name, f] : {std::pair<const char*, PlanPointResult::FirstStep*>{"cold", &r.cold}, {"warm", &r.warm}}) {
    f->total_s = j.at("first_step").at(name).at("total_s").get<double>();
    f->parts = j.at("first_step").at(name).at("parts").get<Pairs>();
  }
}

}  // namespace trn::app
