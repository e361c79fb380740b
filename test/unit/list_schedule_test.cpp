// The compiler's order of a segment's ops (workloads/compile/list_schedule.h) on small graphs
// built by hand: which ops a segment holds, the FSDP gathers' prefetch, and the list schedule.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "workloads/compile/list_schedule.h"

using namespace trn::workloads;
using trn::models::Engine;

namespace {
GraphOp op(const char* name, Phase phase = Phase::Forward) {
  GraphOp g;
  g.name = name;
  g.phase = phase;
  return g;
}

GraphOp gather(const char* name, Phase phase) {
  GraphOp g = op(name, phase);
  g.kind = OpKind::Collective;
  g.group = GroupKind::Fsdp;
  g.prefetchable = true;
  return g;
}

std::vector<std::string> names(const TrainingGraph& t, const std::vector<Vertex>& order) {
  std::vector<std::string> out;
  for (Vertex v : order) out.push_back(t.g[v].name);
  return out;
}
}  // namespace

TEST_CASE("a segment holds its phase's ops, and the once-per-step ops only on the last micro-batch",
          "[workload][schedule]") {
  GraphOp update = op("adamw", Phase::Update);
  update.once_per_step = true;
  CHECK(in_segment(op("fwd"), SegmentKind{false, false}));
  CHECK_FALSE(in_segment(op("fwd"), SegmentKind{true, true}));
  CHECK(in_segment(op("bwd", Phase::Backward), SegmentKind{true, false}));
  CHECK_FALSE(in_segment(update, SegmentKind{true, false}));
  CHECK(in_segment(update, SegmentKind{true, true}));
  CHECK(SegmentKind{true, true}.index() == 3);
}

TEST_CASE("compiled mode prefetches each FSDP gather to just after the previous one", "[workload][schedule]") {
  TrainingGraph t;
  Vertex g0 = t.add(gather("ag0", Phase::Forward), {});
  Vertex a = t.add(op("layer0"), {g0});
  Vertex g1 = t.add(gather("ag1", Phase::Forward), {});
  Vertex b = t.add(op("layer1"), {a, g1});
  t.add(op("grad", Phase::Backward), {b});
  const SegmentKind fwd{false, true};
  CHECK(names(t, program_order(t, fwd, false)) == std::vector<std::string>{"ag0", "layer0", "ag1", "layer1"});
  CHECK(names(t, program_order(t, fwd, true)) == std::vector<std::string>{"ag0", "ag1", "layer0", "layer1"});
  CHECK(names(t, program_order(t, SegmentKind{true, true}, true)) == std::vector<std::string>{"grad"});
}

TEST_CASE("the list schedule fills a collective's wait with independent work", "[workload][schedule]") {
  // mm -> all-reduce -> next, and an independent wgrad: in program order the tensor engine
  // would wait for the all-reduce before the wgrad; the list schedule runs the wgrad first.
  TrainingGraph t;
  Vertex mm = t.add(op("mm"), {});
  GraphOp ar = op("ar");
  ar.kind = OpKind::Collective;
  Vertex r = t.add(ar, {mm});
  Vertex next = t.add(op("next"), {r});
  Vertex wgrad = t.add(op("wgrad"), {});
  const std::vector<Vertex> order{mm, r, next, wgrad};
  const std::vector<LaneEstimate> est{
      {Engine::Tensor, 0, 1.0}, {Engine::Collective, 1, 5.0}, {Engine::Tensor, 0, 1.0}, {Engine::Tensor, 0, 2.0}};
  CHECK(names(t, list_schedule(t.g, order, est)) == std::vector<std::string>{"mm", "ar", "wgrad", "next"});
  // Equal starts keep program order.
  const std::vector<LaneEstimate> free{
      {Engine::Tensor, 0, 0.0}, {Engine::Collective, 1, 0.0}, {Engine::Tensor, 0, 0.0}, {Engine::Tensor, 0, 0.0}};
  CHECK(names(t, list_schedule(t.g, order, free)) == std::vector<std::string>{"mm", "ar", "next", "wgrad"});
}

TEST_CASE("inside one whole graph a sequence edge does not order two ops", "[workload][schedule]") {
  TrainingGraph t;
  Vertex slow = t.add(op("slow"), {});
  Vertex quick = t.add(op("quick"), {});
  t.depend(slow, quick, true);  // separately launched graphs would run quick after slow
  // Placed in program order, quick first: the sequence edge does not hold it back.
  const std::vector<LaneEstimate> est{{Engine::Vector, 0, 1.0}, {Engine::Tensor, 0, 3.0}};
  CHECK(names(t, list_schedule(t.g, {quick, slow}, est)) == std::vector<std::string>{"quick", "slow"});
}
