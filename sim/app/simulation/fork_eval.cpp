// run_in_child / run_in_children over the one fork helper (sim/base/fork_pool.h).
#include "sim/app/simulation/fork_eval.h"

#include <cstring>
#include <stdexcept>

#include "sim/base/fork_pool.h"

namespace trn::app {

std::vector<std::string> run_in_children(const std::vector<std::function<std::string()>>& bodies,
                                         const std::string& what, int jobs) {
  std::vector<std::string> out(bodies.size());
  bool ok = true;
  sim::run_forked(
      bodies.size(), [&](size_t i) { return bodies[i](); }, jobs,
      [&](size_t i, sim::ChildOutcome&& c) {
        ok = c.ok() && ok;
        out[i] = std::move(c.output);
      },
      what);
  if (!ok) throw std::runtime_error(what + " failed");
  return out;
}

std::vector<double> run_in_child(const std::function<std::vector<double>()>& body, const std::string& what) {
  std::string out =
      run_in_children({[&body] {
                        std::vector<double> v = body();
                        return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
                      }},
                      what, 1)[0];
  std::vector<double> v(out.size() / sizeof(double));
  std::memcpy(v.data(), out.data(), v.size() * sizeof(double));
  return v;
}

}  // namespace trn::app
