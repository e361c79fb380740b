// Program helpers.
#include "models/ir/program.h"

#include <stdexcept>

namespace trn::models {

const char* engine_name(Engine e) {
  switch (e) {
    case Engine::Tensor: return "tensor";
    case Engine::Vector: return "vector";
    case Engine::Scalar: return "scalar";
    case Engine::GpSimd: return "gpsimd";
    case Engine::Dma: return "dma";
    case Engine::Collective: return "collective";
    case Engine::Host: return "host";
  }
  return "?";
}

void Program::check() const {
  for (size_t i = 0; i < ops.size(); ++i)
    for (int32_t d : ops[i].deps)
      if (d < 0 || static_cast<size_t>(d) >= i)
        throw std::logic_error("program: op " + std::to_string(i) + " depends on op " + std::to_string(d) +
                               ", which does not precede it");
}

}  // namespace trn::models
