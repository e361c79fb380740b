// The SystemC compile host schedules jobs exactly as the closed-form LPT makespan says.
#include <catch2/catch.hpp>

#include <memory>

#include "hw/host/compile_host.h"
#include "models/compile/compile_model.h"

using namespace trn;

TEST_CASE("CompileHost makespan equals the LPT closed form", "[host]") {
  static std::unique_ptr<sim::EventQueue> ev;
  static std::unique_ptr<hw::CompileHost> host;
  ev = std::make_unique<sim::EventQueue>("events");
  host = std::make_unique<hw::CompileHost>("host", *ev, 3);
  std::vector<double> jobs = {780, 770, 760, 40, 12, 9, 9, 1};
  for (size_t i = 0; i < jobs.size(); ++i) host->submit("g" + std::to_string(i), jobs[i]);
  sim::run_to_completion();
  CHECK(host->makespan() == Approx(models::lpt_makespan(jobs, 3)));
  CHECK(host->records().size() == jobs.size());
  for (const auto& a : host->records())  // no two jobs overlap on one worker
    for (const auto& b : host->records())
      if (&a != &b && a.worker == b.worker) CHECK((a.end_s <= b.start_s + 1e-9 || b.end_s <= a.start_s + 1e-9));
}
