// The question a plan answers, recorded in its JSON (plan.h): every input, and the command
// that asks it again.
#include <cctype>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/app/plan/plan.h"
#include "sim/base/config_reader.h"
#include "sim/base/units.h"

namespace trn::app {
namespace {

template <class T>
std::string joined(const std::vector<T>& v) {
  std::string out;
  for (const auto& x : v) {
    if (!out.empty()) out += ",";
    if constexpr (std::is_same_v<T, std::string>)
      out += x;
    else
      out += std::to_string(x);
  }
  return out;
}

std::vector<std::string> checkpointing_words(const std::vector<workloads::Checkpointing>& v) {
  std::vector<std::string> out;
  for (auto c : v) out.push_back(workloads::enum_word(c));
  return out;
}

// A word for the shell: quoted when it holds anything but [A-Za-z0-9._,:=@%/+-].
std::string shell_word(const std::string& w) {
  for (char c : w)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string("._,:=@%/+-").find(c) != std::string::npos)) {
      std::string q = "'";
      for (char d : w) q += d == '\'' ? std::string("'\\''") : std::string(1, d);
      return q + "'";
    }
  return w;
}

}  // namespace

nlohmann::ordered_json plan_question(const PlanOptions& o) {
  using J = nlohmann::ordered_json;
  J q;
  q["model"] = o.model;
  q["tokens"] = o.tokens;
  q["systems"] = o.systems;
  q["min_chips"] = o.min_chips;
  q["max_chips"] = o.max_chips;
  q["deadline_s"] = o.deadline_s > 0 ? J(o.deadline_s) : J(nullptr);
  q["max_cost_usd"] = o.budget_usd > 0 ? J(o.budget_usd) : J(nullptr);
  q["hbm_headroom"] = o.hbm_headroom;
  q["cache"] = workloads::enum_word(o.cache);
  if (!o.global_batches.empty())
    q["global_batches"] = o.global_batches;
  else
    q["tokens_per_step"] = o.tokens_per_step;
  q["seq_len"] = o.seq_len;
  q["batch_tolerance"] = o.batch_tolerance;
  q["counts"] = o.pow2_counts ? "pow2" : "all";
  q["rank_by"] = rank_word(o.rank_by, o.rank_quantile);
  q["search_space"] = {{"tp", o.space.tp},
                       {"pp", o.space.pp},
                       {"max_fsdp", o.space.max_fsdp},
                       {"microbatch_sequences", o.space.microbatch_sequences},
                       {"checkpointing", checkpointing_words(o.space.checkpointing)}};
  q["prices_given"] = o.prices;
  q["sets"] = o.sets;
  q["exhaustive"] = o.exhaustive;
  q["intervals"] = o.intervals;
  if (o.max_memory > 0) q["max_memory_B"] = o.max_memory;
  return q;
}

std::string plan_command_line(const PlanOptions& o) {
  std::vector<std::string> a = {"trnsim",      "plan",
                                "--model",     o.model,
                                "--tokens",    sim::format_double_exact(o.tokens),
                                "--systems",   joined(o.systems),
                                "--min-chips", std::to_string(o.min_chips),
                                "--max-chips", std::to_string(o.max_chips)};
  if (o.deadline_s > 0) a.insert(a.end(), {"--deadline", sim::format_double_exact(o.deadline_s) + "s"});
  if (o.budget_usd > 0) a.insert(a.end(), {"--max-cost", sim::format_double_exact(o.budget_usd)});
  a.insert(a.end(), {"--hbm-headroom", sim::format_double_exact(100 * o.hbm_headroom) + "%"});
  for (const auto& [sys, usd] : o.prices) a.insert(a.end(), {"--price", sys + "=" + sim::format_double_exact(usd)});
  a.insert(a.end(), {"--cache", workloads::enum_word(o.cache)});
  if (!o.global_batches.empty())
    a.insert(a.end(), {"--global-batch", joined(o.global_batches)});
  else
    a.insert(a.end(), {"--tokens-per-step", joined(o.tokens_per_step)});
  a.insert(a.end(), {"--batch-tolerance", sim::format_double_exact(100 * o.batch_tolerance) + "%", "--counts",
                     o.pow2_counts ? "pow2" : "all"});
  a.insert(a.end(), {"--seq-len", std::to_string(o.seq_len), "--rank-by", rank_word(o.rank_by, o.rank_quantile)});
  a.insert(a.end(), {"--tp", joined(o.space.tp), "--pp", joined(o.space.pp), "--max-fsdp",
                     std::to_string(o.space.max_fsdp), "--microbatch-sequences", joined(o.space.microbatch_sequences),
                     "--checkpointing", joined(checkpointing_words(o.space.checkpointing))});
  const auto& r = o.restart;
  a.insert(a.end(), {"--interruption-rate", sim::format_double_exact(r.interruptions_per_chip_hour),
                     "--checkpoint-write-bw", sim::format_quantity_exact(r.write_bandwidth, sim::Dim::Bandwidth),
                     "--checkpoint-read-bw", sim::format_quantity_exact(r.read_bandwidth, sim::Dim::Bandwidth)});
  if (r.interval_s > 0) a.insert(a.end(), {"--checkpoint-interval", sim::format_double_exact(r.interval_s) + "s"});
  for (const auto& s : o.sets) a.insert(a.end(), {"--set", s});
  if (o.exhaustive) a.push_back("--exhaustive");
  if (!o.intervals) a.push_back("--no-intervals");
  if (o.max_memory > 0) a.insert(a.end(), {"--max-memory", sim::format_double_exact(o.max_memory) + " B"});
  std::string out;
  for (const auto& w : a) out += (out.empty() ? "" : " ") + shell_word(w);
  return out;
}

}  // namespace trn::app
