// The registry of collective algorithms: algorithm_list.h's entries, by enum and by name.
#include <stdexcept>
#include <string>

#include "models/collectives/algorithm.h"
#include "models/collectives/algorithm_list.h"

namespace trn::models {

#define TRN_DECLARE_ALGORITHM(enumerator, function) const CollectiveAlgorithm& function();
TRN_COLLECTIVE_ALGORITHMS(TRN_DECLARE_ALGORITHM)
#undef TRN_DECLARE_ALGORITHM

namespace {
const std::vector<const CollectiveAlgorithm*>& registry() {
#define TRN_LIST_ALGORITHM(enumerator, function) &function(),
  static const std::vector<const CollectiveAlgorithm*> all = {TRN_COLLECTIVE_ALGORITHMS(TRN_LIST_ALGORITHM)};
#undef TRN_LIST_ALGORITHM
  return all;
}
}  // namespace

const CollectiveAlgorithm& algorithm(Algorithm a) {
  const auto& all = registry();
  const size_t i = static_cast<size_t>(a);
  if (i >= all.size()) throw std::out_of_range("collective algorithm " + std::to_string(i) + " is not registered");
  return *all[i];
}

std::vector<Algorithm> registered_algorithms() {
  std::vector<Algorithm> out;
  for (size_t i = 0; i < registry().size(); ++i) out.push_back(static_cast<Algorithm>(i));
  return out;
}

std::string algorithm_names(const char* separator) {
  std::string out;
  for (const CollectiveAlgorithm* a : registry()) out += (out.empty() ? "" : separator) + std::string(a->name());
  return out;
}

bool parse_algorithm(const std::string& s, Algorithm* out) {
  const auto& all = registry();
  for (size_t i = 0; i < all.size(); ++i)
    if (s == all[i]->name()) {
      *out = static_cast<Algorithm>(i);
      return true;
    }
  return false;
}

const char* algorithm_name(Algorithm a) { return algorithm(a).name(); }

int build_phase(PlanBuilder& b, Algorithm a, const std::vector<int>& ranks, double bytes, PhaseKind kind,
                const PlanOptions& opt) {
  if (kind == PhaseKind::AllToAll) return algorithm(Algorithm::Mesh).build(b, ranks, bytes, kind, opt);
  return algorithm(a).build(b, ranks, bytes, kind, opt);
}

}  // namespace trn::models
