// Algorithm selection by size band, group size and SDK release (see selection.h).
#include "models/collectives/selection.h"

#include "sim/base/shared_helpers.h"

namespace trn::models {
namespace {

using sim::is_pow2;

constexpr double kMeshMax = 1e6;  // S22: mesh below 1 MB
constexpr double kRdhMax = 56e6;  // S22: rdh from 1 MB to 56 MB

}  // namespace

Algorithm large_message_algorithm(const CollectiveSpec& cc) {
  return cc.large_message_algorithm == LargeMessageAlgorithm::KangaRing ? Algorithm::KangaRing : Algorithm::Ring;
}

Algorithm choose_intra(CollectiveOp op, double bytes, int ranks, Algorithm large_algorithm) {
  if (op == CollectiveOp::AllToAll || bytes < kMeshMax) return Algorithm::Mesh;
  if (bytes <= kRdhMax && is_pow2(ranks)) return Algorithm::Rdh;
  return large_algorithm;
}

Algorithm choose_inter(CollectiveOp op, double bytes, int ranks) {
  if (op == CollectiveOp::AllToAll || bytes < kMeshMax) return Algorithm::Mesh;
  if (bytes <= kRdhMax && is_pow2(ranks)) return Algorithm::Rdh;
  return Algorithm::Ring;
}

bool legacy_allreduce(const SdkRelease& r, int local_ranks) {
  if (local_ranks <= 1 || !r.before(2, 21)) return false;
  if (r.before(2, 11)) return true;
  if (local_ranks == 32) return false;
  return !(local_ranks == 16 && !r.before(2, 12));
}

}  // namespace trn::models
